-- 0001_initial: the core GoTrue-compatible schema (the tables of GoTrue's migrations), in the namespace chosen by DB_NAMESPACE.
--
-- {{namespace}} is replaced by the migration runner with the quoted, validated schema name
-- (^[a-z_][a-z0-9_]{0,62}$). The runner applies this file inside one transaction, under an advisory lock.
-- Must run on PostgreSQL 15+ and on PGlite: core features only (gen_random_uuid() is core since PG13).
--
-- Deliberate differences from GoTrue:
--   * Secrets are stored hashed. refresh_tokens keeps token_hash (hex SHA-256) instead of the token and
--     points at its parent by id; the users token columns and one_time_tokens.token_hash hold hashes only.
--   * Token columns are null when no token is pending (GoTrue uses ''); the partial indexes skip both.
--   * All timestamps are timestamptz, including sessions.refreshed_at and one_time_tokens.*.
--   * MFA, SSO/SAML, OAuth-server, passkey and web3 tables are not created yet; later migrations add them.

create type {{namespace}}.aal_level as enum ('aal1', 'aal2', 'aal3');

create type {{namespace}}.code_challenge_method as enum ('s256', 'plain');

create type {{namespace}}.one_time_token_type as enum (
  'confirmation_token',
  'reauthentication_token',
  'recovery_token',
  'email_change_token_new',
  'email_change_token_current',
  'phone_change_token'
);

create table {{namespace}}.users (
  instance_id uuid,
  id uuid not null default gen_random_uuid(),
  aud varchar(255),
  role varchar(255),
  -- Stored lowercased, so that the unique key below is case-insensitive.
  email varchar(255),
  -- argon2id PHC string (or an imported bcrypt/argon2 hash until the next sign-in upgrades it).
  encrypted_password varchar(255),
  email_confirmed_at timestamptz,
  invited_at timestamptz,
  -- HASH ONLY (hex digest of email/phone + OTP, as GoTrue): never the token a user receives.
  confirmation_token varchar(255),
  confirmation_sent_at timestamptz,
  -- HASH ONLY.
  recovery_token varchar(255),
  recovery_sent_at timestamptz,
  -- HASH ONLY.
  email_change_token_new varchar(255),
  email_change varchar(255),
  email_change_sent_at timestamptz,
  last_sign_in_at timestamptz,
  raw_app_meta_data jsonb,
  raw_user_meta_data jsonb,
  is_super_admin boolean,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  -- E.164 digits without the leading '+'.
  phone text default null,
  phone_confirmed_at timestamptz,
  phone_change text,
  -- HASH ONLY.
  phone_change_token varchar(255),
  phone_change_sent_at timestamptz,
  confirmed_at timestamptz generated always as (least(email_confirmed_at, phone_confirmed_at)) stored,
  -- HASH ONLY.
  email_change_token_current varchar(255),
  email_change_confirm_status smallint default 0,
  banned_until timestamptz,
  -- HASH ONLY.
  reauthentication_token varchar(255),
  reauthentication_sent_at timestamptz,
  is_sso_user boolean not null default false,
  deleted_at timestamptz,
  is_anonymous boolean not null default false,
  constraint users_pkey primary key (id),
  constraint users_phone_key unique (phone),
  constraint users_email_lowercase_check check (email = lower(email)),
  constraint users_email_change_confirm_status_check check (
    email_change_confirm_status >= 0 and email_change_confirm_status <= 2
  )
);

-- SSO users may share an email with each other and with a non-SSO user (separate linking domains).
create unique index users_email_partial_key on {{namespace}}.users (email) where (is_sso_user = false);
-- Lookups by email that do not filter on is_sso_user cannot use the partial key above.
create index users_email_idx on {{namespace}}.users (email);
-- The admin user list pages newest first.
create index users_created_at_desc_idx on {{namespace}}.users (created_at desc);
create index users_is_anonymous_idx on {{namespace}}.users (is_anonymous);
-- Token hashes are unique while pending; the predicate skips "no token" (null or '').
create unique index confirmation_token_idx on {{namespace}}.users (confirmation_token)
  where confirmation_token <> '';
create unique index recovery_token_idx on {{namespace}}.users (recovery_token)
  where recovery_token <> '';
create unique index email_change_token_current_idx on {{namespace}}.users (email_change_token_current)
  where email_change_token_current <> '';
create unique index email_change_token_new_idx on {{namespace}}.users (email_change_token_new)
  where email_change_token_new <> '';
create unique index reauthentication_token_idx on {{namespace}}.users (reauthentication_token)
  where reauthentication_token <> '';

create table {{namespace}}.identities (
  id uuid not null default gen_random_uuid(),
  -- The provider's subject (the JSON `id` of an identity); for email identities the user id.
  provider_id text not null,
  user_id uuid not null,
  identity_data jsonb not null,
  provider text not null,
  last_sign_in_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  email text generated always as (lower(identity_data ->> 'email')) stored,
  constraint identities_pkey primary key (id),
  constraint identities_provider_id_provider_unique unique (provider_id, provider),
  constraint identities_user_id_fkey foreign key (user_id) references {{namespace}}.users (id) on delete cascade
);

create index identities_user_id_idx on {{namespace}}.identities (user_id);
create index identities_email_idx on {{namespace}}.identities (email text_pattern_ops);

create table {{namespace}}.sessions (
  id uuid not null default gen_random_uuid(),
  user_id uuid not null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  factor_id uuid,
  aal {{namespace}}.aal_level,
  not_after timestamptz,
  refreshed_at timestamptz,
  user_agent text,
  ip inet,
  tag text,
  constraint sessions_pkey primary key (id),
  constraint sessions_user_id_fkey foreign key (user_id) references {{namespace}}.users (id) on delete cascade
);

-- Serves "sessions of a user" as well as "newest session of a user".
create index sessions_user_id_created_at_idx on {{namespace}}.sessions (user_id, created_at);
create index sessions_not_after_idx on {{namespace}}.sessions (not_after desc);

create table {{namespace}}.refresh_tokens (
  id bigint generated by default as identity,
  -- HASH ONLY: lowercase hex SHA-256 of the refresh token handed to the client.
  token_hash text not null,
  user_id uuid not null,
  session_id uuid not null,
  -- The token this one replaced on refresh (same session); null for the first token of a session.
  parent_id bigint,
  revoked boolean not null default false,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint refresh_tokens_pkey primary key (id),
  constraint refresh_tokens_token_hash_unique unique (token_hash),
  constraint refresh_tokens_token_hash_check check (token_hash ~ '^[0-9a-f]{64}$'),
  constraint refresh_tokens_user_id_fkey foreign key (user_id) references {{namespace}}.users (id) on delete cascade,
  constraint refresh_tokens_session_id_fkey foreign key (session_id)
    references {{namespace}}.sessions (id) on delete cascade,
  -- Cleanup deletes old revoked tokens; their children must survive it.
  constraint refresh_tokens_parent_id_fkey foreign key (parent_id)
    references {{namespace}}.refresh_tokens (id) on delete set null
);

-- "The active token of a session" and "revoke the family".
create index refresh_tokens_session_id_revoked_idx on {{namespace}}.refresh_tokens (session_id, revoked);
-- "Is the presented (revoked) token the parent of the active one?"
create index refresh_tokens_parent_id_idx on {{namespace}}.refresh_tokens (parent_id);
create index refresh_tokens_user_id_idx on {{namespace}}.refresh_tokens (user_id);
create index refresh_tokens_updated_at_idx on {{namespace}}.refresh_tokens (updated_at desc);

create table {{namespace}}.one_time_tokens (
  id uuid not null default gen_random_uuid(),
  user_id uuid not null,
  token_type {{namespace}}.one_time_token_type not null,
  -- HASH ONLY (prefixed 'pkce_' for PKCE flows, as GoTrue).
  token_hash text not null,
  -- The lowercased email or phone the token was sent to.
  relates_to text not null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint one_time_tokens_pkey primary key (id),
  constraint one_time_tokens_token_hash_check check (char_length(token_hash) > 0),
  -- One live token per type per user: issuing a new one replaces the old one.
  constraint one_time_tokens_user_id_token_type_key unique (user_id, token_type),
  constraint one_time_tokens_user_id_fkey foreign key (user_id) references {{namespace}}.users (id) on delete cascade
);

create index one_time_tokens_token_hash_hash_idx on {{namespace}}.one_time_tokens using hash (token_hash);
create index one_time_tokens_relates_to_hash_idx on {{namespace}}.one_time_tokens using hash (relates_to);

create table {{namespace}}.flow_state (
  -- Doubles as the OAuth `state` parameter.
  id uuid not null default gen_random_uuid(),
  user_id uuid,
  -- HASH ONLY of the PKCE authorization code.
  auth_code text,
  code_challenge_method {{namespace}}.code_challenge_method,
  code_challenge text,
  provider_type text not null,
  -- Kept in clear: they are handed back to the client as provider_token / provider_refresh_token.
  provider_access_token text,
  provider_refresh_token text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  authentication_method text not null,
  auth_code_issued_at timestamptz,
  invite_token text,
  referrer text,
  linking_target_id uuid,
  email_optional boolean not null default false,
  constraint flow_state_pkey primary key (id)
);

create index idx_auth_code on {{namespace}}.flow_state (auth_code);
create index idx_user_id_auth_method on {{namespace}}.flow_state (user_id, authentication_method);
create index flow_state_created_at_idx on {{namespace}}.flow_state (created_at desc);

create table {{namespace}}.audit_log_entries (
  instance_id uuid,
  id uuid not null default gen_random_uuid(),
  payload jsonb,
  created_at timestamptz not null default now(),
  ip_address varchar(64) not null default '',
  constraint audit_log_entries_pkey primary key (id)
);

create index audit_log_entries_created_at_idx on {{namespace}}.audit_log_entries (created_at desc);

-- As in Supabase: the tables are not reachable through PostgREST roles unless policies say so.
-- The table owner (this server) is not subject to RLS.
alter table {{namespace}}.users enable row level security;
alter table {{namespace}}.identities enable row level security;
alter table {{namespace}}.sessions enable row level security;
alter table {{namespace}}.refresh_tokens enable row level security;
alter table {{namespace}}.one_time_tokens enable row level security;
alter table {{namespace}}.flow_state enable row level security;
alter table {{namespace}}.audit_log_entries enable row level security;

-- SQL helpers for RLS policies written for Supabase. PostgREST sets `request.jwt.claims` (jsonb text);
-- releases before PostgREST 9 set one `request.jwt.claim.<name>` per claim. Same lookup order as
-- Supabase's migrations (legacy setting first, then the claims object), so policies behave identically.
-- nullif(…, '') because a custom setting that was once set reads as '' afterwards, not null.
-- search_path '' forces fully qualified names inside the functions.
create function {{namespace}}.uid()
  returns uuid
  language sql
  stable
  set search_path to ''
as $$
  select coalesce(
    nullif(current_setting('request.jwt.claim.sub', true), ''),
    (nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'sub')
  )::uuid
$$;

create function {{namespace}}.role()
  returns text
  language sql
  stable
  set search_path to ''
as $$
  select coalesce(
    nullif(current_setting('request.jwt.claim.role', true), ''),
    (nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'role')
  )::text
$$;

-- Deprecated in Supabase in favour of jwt() ->> 'email'; kept for existing policies.
create function {{namespace}}.email()
  returns text
  language sql
  stable
  set search_path to ''
as $$
  select coalesce(
    nullif(current_setting('request.jwt.claim.email', true), ''),
    (nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'email')
  )::text
$$;

create function {{namespace}}.jwt()
  returns jsonb
  language sql
  stable
  set search_path to ''
as $$
  select coalesce(
    nullif(current_setting('request.jwt.claim', true), ''),
    nullif(current_setting('request.jwt.claims', true), '')
  )::jsonb
$$;
