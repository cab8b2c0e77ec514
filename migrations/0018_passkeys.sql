-- 0018_passkeys: passkeys (WebAuthn as a first factor) and WebAuthn as a second factor, as the
-- reference's migrations 20260302000000_add_passkeys, 20241009103726_add_web_authn and
-- 20250925093508.
--
-- A passkey's credential id is unique across all users: an authenticator answering for one credential
-- must identify one account. Challenges are single use: a verification deletes its row in the one
-- statement that reads it (`delete … returning`), so of concurrent verifications exactly one finds it.

create table {{namespace}}.webauthn_credentials (
  id uuid not null default gen_random_uuid(),
  user_id uuid not null,
  credential_id bytea not null,
  -- The COSE public key, as the authenticator gave it.
  public_key bytea not null,
  attestation_type text not null default '',
  aaguid uuid,
  sign_count bigint not null default 0,
  transports jsonb not null default '[]'::jsonb,
  backup_eligible boolean not null default false,
  backed_up boolean not null default false,
  friendly_name text not null default '',
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  last_used_at timestamptz,
  constraint webauthn_credentials_pkey primary key (id),
  constraint webauthn_credentials_credential_id_key unique (credential_id),
  constraint webauthn_credentials_user_id_fkey foreign key (user_id)
    references {{namespace}}.users (id) on delete cascade
);

create index webauthn_credentials_user_id_idx on {{namespace}}.webauthn_credentials (user_id);

create table {{namespace}}.webauthn_challenges (
  id uuid not null,
  -- Null for a sign-in: whose passkey answers is only known from the assertion.
  user_id uuid,
  challenge_type text not null,
  -- What the verification compares the answer with: the challenge, the user verification asked for.
  session_data jsonb not null,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  constraint webauthn_challenges_pkey primary key (id),
  constraint webauthn_challenges_user_id_fkey foreign key (user_id)
    references {{namespace}}.users (id) on delete cascade,
  constraint webauthn_challenges_type_check
    check (challenge_type in ('signup', 'registration', 'authentication'))
);

create index webauthn_challenges_user_id_idx on {{namespace}}.webauthn_challenges (user_id);
create index webauthn_challenges_expires_at_idx on {{namespace}}.webauthn_challenges (expires_at);

-- WebAuthn second factors: the credential (the reference's go-webauthn `Credential` JSON) and its
-- authenticator's AAGUID on the factor, the ceremony's state on the challenge.
alter table {{namespace}}.mfa_factors
  add column web_authn_credential jsonb,
  add column web_authn_aaguid uuid,
  add column last_webauthn_challenge_data jsonb;

alter table {{namespace}}.mfa_challenges
  add column web_authn_session_data jsonb;

alter table {{namespace}}.webauthn_credentials enable row level security;
alter table {{namespace}}.webauthn_challenges enable row level security;
