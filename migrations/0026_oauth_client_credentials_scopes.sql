-- 0026_oauth_client_credentials_scopes: a client's allowed scopes, and the operator's custom scopes.
--
-- `oauth_clients.scope` (RFC 7591's name, space-separated) lists the scopes a client may ask for: at
-- `/oauth/authorize`, and in its own tokens (`grant_type=client_credentials`, RFC 6749 §4.4, which
-- `grant_types` may now hold for a confidential client). Null: no list (the code flow asks for any
-- supported scope; a client_credentials token carries none).
alter table {{namespace}}.oauth_clients
  add column if not exists scope text check (char_length(scope) <= 4096);

-- The scopes an operator defines beside OpenID Connect's (`/admin/oauth/scopes`), each with the words
-- the consent page shows and, optionally, the one resource (RFC 8707) it is granted for.
create table if not exists {{namespace}}.oauth_scopes (
  scope text not null check (char_length(scope) between 1 and 128),
  resource text check (char_length(resource) <= 2048),
  description text not null check (char_length(description) between 1 and 1024),
  created_at timestamptz not null default now(),
  constraint oauth_scopes_pkey primary key (scope)
);
alter table {{namespace}}.oauth_scopes enable row level security;
