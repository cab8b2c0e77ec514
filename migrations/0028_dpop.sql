-- 0028_dpop: sender-constrained tokens of the OAuth server (DPoP, RFC 9449).
--
-- A session started by a token request that proved a DPoP key remembers that key's thumbprint
-- (RFC 7638, base64url of SHA-256: 43 characters): its access tokens carry it as `cnf.jkt`, and its
-- refresh tokens are refused without a proof of that key. The refresh function checks it, so its old
-- signature is dropped here and its file (functions/refresh_token_grant.sql) creates the new one
-- right after the migrations.
alter table {{namespace}}.sessions
  add column if not exists dpop_jkt text check (char_length(dpop_jkt) <= 128);

drop function if exists {{namespace}}.refresh_token_grant(text, text, timestamptz, boolean, bigint, bigint, bigint, boolean, text, uuid);

-- A client whose every token request must carry a DPoP proof (RFC 9449 §5.2 `dpop_bound_access_tokens`).
alter table {{namespace}}.oauth_clients
  add column if not exists dpop_bound_access_tokens boolean not null default false;

-- The DPoP proofs already presented (RFC 9449 §11.1), by a hash of their key's thumbprint and `jti`:
-- a proof is accepted once across every instance. Each row is kept until no proof of its `iat` could
-- be accepted any more, then removed by the cleanup (task `dpop_proofs`).
create table if not exists {{namespace}}.dpop_proofs (
  key text not null,
  expires_at timestamptz not null,
  constraint dpop_proofs_pkey primary key (key)
);

create index if not exists dpop_proofs_expires_at_idx on {{namespace}}.dpop_proofs (expires_at);
