-- 0006_mfa: multi-factor authentication (GoTrue's mfa_factors and mfa_challenges).
--
-- Deliberate differences from GoTrue:
--   * mfa_factors.secret (TOTP) and mfa_challenges.otp_code (phone) are always encrypted, in GoTrue's
--     own format ({"key_id","alg":"aes-gcm-hkdf","nonce","data"}, the key derived per row id with
--     HKDF-SHA256), so rows copied from a GoTrue database with SECURITY_DB_ENCRYPTION keys decrypt here.
--   * No mfa_amr_claims table: the session's authentication methods live in sessions.amr (0002), one
--     jsonb array per session, which MFA verification extends with `totp` or `mfa/phone`.
--   * No WebAuthn columns: WebAuthn factors are not offered.

create type {{namespace}}.factor_type as enum ('totp', 'webauthn', 'phone');
create type {{namespace}}.factor_status as enum ('unverified', 'verified');

create table {{namespace}}.mfa_factors (
  id uuid not null,
  user_id uuid not null,
  friendly_name text,
  factor_type {{namespace}}.factor_type not null,
  status {{namespace}}.factor_status not null,
  created_at timestamptz not null,
  updated_at timestamptz not null,
  -- ENCRYPTED: the TOTP secret (null for phone factors).
  secret text,
  phone text,
  last_challenged_at timestamptz,
  constraint mfa_factors_pkey primary key (id),
  constraint mfa_factors_user_id_fkey foreign key (user_id) references {{namespace}}.users (id) on delete cascade
);

-- A friendly name is unique per user (an empty one may repeat), as GoTrue's mfa_factors_user_friendly_name_unique.
create unique index mfa_factors_user_friendly_name_unique on {{namespace}}.mfa_factors (friendly_name, user_id)
  where trim(friendly_name) <> '';
create unique index unique_phone_factor_per_user on {{namespace}}.mfa_factors (user_id, phone);
create index factor_id_created_at_idx on {{namespace}}.mfa_factors (user_id, created_at);
create index mfa_factors_user_id_idx on {{namespace}}.mfa_factors (user_id);

create table {{namespace}}.mfa_challenges (
  id uuid not null,
  factor_id uuid not null,
  created_at timestamptz not null,
  verified_at timestamptz,
  ip_address text not null,
  -- ENCRYPTED: the code texted for a phone factor (null for TOTP).
  otp_code text,
  constraint mfa_challenges_pkey primary key (id),
  constraint mfa_challenges_auth_factor_id_fkey foreign key (factor_id)
    references {{namespace}}.mfa_factors (id) on delete cascade
);

create index mfa_challenge_created_at_idx on {{namespace}}.mfa_challenges (created_at desc);
create index mfa_challenges_factor_id_idx on {{namespace}}.mfa_challenges (factor_id);

-- The factor that raised a session to aal2 (sessions.factor_id exists since 0001).
alter table {{namespace}}.sessions
  add constraint sessions_factor_id_fkey foreign key (factor_id)
    references {{namespace}}.mfa_factors (id) on delete set null;

alter table {{namespace}}.mfa_factors enable row level security;
alter table {{namespace}}.mfa_challenges enable row level security;
