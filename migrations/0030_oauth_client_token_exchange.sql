-- 0030_oauth_client_token_exchange: what an admin allows a client in token exchange (RFC 8693).
--
-- A client an admin gave the token-exchange grant type exchanges a user's access token, issued to
-- it, for one to another audience: only the audiences listed here (resource URIs or audience names),
-- and impersonation (a token without `act`, indistinguishable from the user's own client token) only
-- when allowed. Both are set through the admin API alone; existing clients get none of either.
alter table {{namespace}}.oauth_clients
  add column if not exists token_exchange_audiences jsonb not null default '[]'::jsonb,
  add column if not exists token_exchange_impersonation boolean not null default false;
