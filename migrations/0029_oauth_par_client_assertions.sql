-- 0029_oauth_par_client_assertions: pushed authorization requests (RFC 9126) and client
-- authentication by signed assertions (RFC 7523, `private_key_jwt` and `client_secret_jwt`).
--
-- A `private_key_jwt` client registers public keys (`jwks`, inline, or `jwks_uri`) and has no secret.
-- A `client_secret_jwt` client's assertions are HMACs with its secret, which is therefore kept sealed
-- (AES-256-GCM with the MFA secrets' key, bound to the client's id) beside its hash; no other client
-- has it stored otherwise than hashed.
alter table {{namespace}}.oauth_clients
  drop constraint if exists oauth_clients_token_endpoint_auth_method_check,
  drop constraint if exists oauth_clients_secret_by_type,
  add column if not exists jwks jsonb,
  add column if not exists jwks_uri text check (char_length(jwks_uri) <= 2048),
  add column if not exists client_secret_sealed text,
  add column if not exists require_pushed_authorization_requests boolean not null default false,
  add constraint oauth_clients_token_endpoint_auth_method_check check (token_endpoint_auth_method in
    ('client_secret_basic', 'client_secret_post', 'none', 'private_key_jwt', 'client_secret_jwt')),
  -- A public client has no secret; a confidential one has one, or signs with its private key.
  add constraint oauth_clients_secret_by_type check (
    (client_type = 'public' and client_secret_hash is null and token_endpoint_auth_method = 'none')
    or (client_type = 'confidential' and token_endpoint_auth_method <> 'none'
      and (client_secret_hash is not null or token_endpoint_auth_method = 'private_key_jwt'))
  );

-- A pushed request waits for `/oauth/authorize?request_uri=` for a minute or so; taking it deletes
-- it, so it is used once. Only the hash of its reference is stored.
create table {{namespace}}.oauth_pushed_requests (
  id uuid not null,
  request_uri_hash text not null,
  client_id uuid not null,
  parameters jsonb not null,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  constraint oauth_pushed_requests_pkey primary key (id),
  constraint oauth_pushed_requests_request_uri_hash_key unique (request_uri_hash),
  constraint oauth_pushed_requests_client_id_fkey foreign key (client_id)
    references {{namespace}}.oauth_clients (id) on delete cascade
);
create index oauth_pushed_requests_expires_at_idx on {{namespace}}.oauth_pushed_requests (expires_at);

-- The `jti` of each client assertion used, until the assertion expires: a replay is refused by
-- whichever instance it reaches.
create table {{namespace}}.oauth_client_assertion_jtis (
  client_id uuid not null,
  jti text not null check (char_length(jti) <= 256),
  expires_at timestamptz not null,
  constraint oauth_client_assertion_jtis_pkey primary key (client_id, jti),
  constraint oauth_client_assertion_jtis_client_id_fkey foreign key (client_id)
    references {{namespace}}.oauth_clients (id) on delete cascade
);
create index oauth_client_assertion_jtis_expires_at_idx on {{namespace}}.oauth_client_assertion_jtis (expires_at);

alter table {{namespace}}.oauth_pushed_requests enable row level security;
alter table {{namespace}}.oauth_client_assertion_jtis enable row level security;
