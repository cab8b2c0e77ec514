-- 0017_oauth_server: authsvc as an OAuth 2.1 / OpenID Connect provider. Clients (registered by the
-- admin API or dynamically), authorization requests waiting for the user's consent, and the consents
-- given; a session issued to a client names it and the scopes granted.
--
-- Secrets are stored hashed: a client's secret and an authorization's code are keyed SHA-256 hashes,
-- never the values handed out. The refresh-token grant takes the client that authenticated (null for
-- `POST /token`) and refuses a session bound to another, so the old function is dropped here and its
-- file (functions/refresh_token_grant.sql) creates the new one right after the migrations.

create type {{namespace}}.oauth_registration_type as enum ('dynamic', 'manual');
create type {{namespace}}.oauth_client_type as enum ('public', 'confidential');
create type {{namespace}}.oauth_authorization_status as enum ('pending', 'approved', 'denied', 'expired');

create table {{namespace}}.oauth_clients (
  id uuid not null,
  client_secret_hash text,
  registration_type {{namespace}}.oauth_registration_type not null,
  client_type {{namespace}}.oauth_client_type not null default 'confidential',
  token_endpoint_auth_method text not null
    check (token_endpoint_auth_method in ('client_secret_basic', 'client_secret_post', 'none')),
  -- JSON arrays: a URI may hold a comma.
  redirect_uris jsonb not null,
  grant_types jsonb not null,
  client_name text check (char_length(client_name) <= 1024),
  client_uri text check (char_length(client_uri) <= 2048),
  logo_uri text check (char_length(logo_uri) <= 2048),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  deleted_at timestamptz,
  constraint oauth_clients_pkey primary key (id),
  -- A public client has no secret; a confidential one always has.
  constraint oauth_clients_secret_by_type check (
    (client_type = 'public' and client_secret_hash is null and token_endpoint_auth_method = 'none')
    or (client_type = 'confidential' and client_secret_hash is not null and token_endpoint_auth_method <> 'none')
  )
);
create index oauth_clients_created_at_idx on {{namespace}}.oauth_clients (created_at desc) where deleted_at is null;

create table {{namespace}}.oauth_authorizations (
  id uuid not null,
  -- What the consent page is handed (`?authorization_id=`): 32 random alphanumerics.
  authorization_id text not null,
  client_id uuid not null,
  user_id uuid,
  redirect_uri text not null check (char_length(redirect_uri) <= 2048),
  scope text not null check (char_length(scope) <= 4096),
  state text check (char_length(state) <= 4096),
  resource text check (char_length(resource) <= 2048),
  code_challenge text not null check (char_length(code_challenge) <= 128),
  code_challenge_method {{namespace}}.code_challenge_method not null,
  nonce text check (char_length(nonce) <= 255),
  status {{namespace}}.oauth_authorization_status not null default 'pending',
  -- Keyed hash of the authorization code, set on approval.
  authorization_code text,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  approved_at timestamptz,
  -- When the user signed in for the session the consent was given in (the ID token's auth_time).
  auth_time timestamptz,
  constraint oauth_authorizations_pkey primary key (id),
  constraint oauth_authorizations_authorization_id_key unique (authorization_id),
  constraint oauth_authorizations_authorization_code_key unique (authorization_code),
  constraint oauth_authorizations_expires_after_created check (expires_at > created_at),
  constraint oauth_authorizations_client_id_fkey foreign key (client_id)
    references {{namespace}}.oauth_clients (id) on delete cascade,
  constraint oauth_authorizations_user_id_fkey foreign key (user_id)
    references {{namespace}}.users (id) on delete cascade
);
-- The cleanup of expired requests reads by expiry.
create index oauth_authorizations_expires_at_idx on {{namespace}}.oauth_authorizations (expires_at);

create table {{namespace}}.oauth_consents (
  id uuid not null,
  user_id uuid not null,
  client_id uuid not null,
  scopes text not null check (char_length(scopes) <= 2048 and char_length(trim(scopes)) > 0),
  granted_at timestamptz not null default now(),
  revoked_at timestamptz,
  constraint oauth_consents_pkey primary key (id),
  constraint oauth_consents_user_client_key unique (user_id, client_id),
  constraint oauth_consents_user_id_fkey foreign key (user_id)
    references {{namespace}}.users (id) on delete cascade,
  constraint oauth_consents_client_id_fkey foreign key (client_id)
    references {{namespace}}.oauth_clients (id) on delete cascade
);

alter table {{namespace}}.sessions
  add column oauth_client_id uuid,
  add column scopes text check (char_length(scopes) <= 4096),
  add constraint sessions_oauth_client_id_fkey foreign key (oauth_client_id)
    references {{namespace}}.oauth_clients (id) on delete cascade;
create index sessions_oauth_client_id_idx on {{namespace}}.sessions (oauth_client_id)
  where oauth_client_id is not null;

alter table {{namespace}}.oauth_clients enable row level security;
alter table {{namespace}}.oauth_authorizations enable row level security;
alter table {{namespace}}.oauth_consents enable row level security;

drop function if exists {{namespace}}.refresh_token_grant(text, text, timestamptz, boolean, bigint, bigint, bigint, boolean, text);
