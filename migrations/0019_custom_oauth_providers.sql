-- 0019_custom_oauth_providers: OAuth 2.0 / OpenID Connect providers an admin adds at runtime, as the
-- reference's migrations 20260219120000_add_custom_oauth_providers and
-- 20260625000000_add_custom_claims_allowlist.
--
-- The client secret is stored sealed (AES-256-GCM, key derived for the row's id), never in plain text.
-- The checks repeat what the admin API validates up front, so no other writer can store what the API
-- would refuse.

create table {{namespace}}.custom_oauth_providers (
  id uuid not null,
  provider_type text not null,
  identifier text not null,
  name text not null,
  client_id text not null,
  client_secret text not null,
  acceptable_client_ids text[] not null default '{}',
  scopes text[] not null default '{}',
  pkce_enabled boolean not null default true,
  attribute_mapping jsonb not null default '{}'::jsonb,
  custom_claims_allowlist text[] not null default '{}',
  authorization_params jsonb not null default '{}'::jsonb,
  enabled boolean not null default true,
  email_optional boolean not null default false,
  issuer text,
  discovery_url text,
  skip_nonce_check boolean not null default false,
  authorization_url text,
  token_url text,
  userinfo_url text,
  jwks_uri text,
  cached_discovery jsonb,
  discovery_cached_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint custom_oauth_providers_pkey primary key (id),
  constraint custom_oauth_providers_identifier_key unique (identifier),
  constraint custom_oauth_providers_provider_type_check check (provider_type in ('oauth2', 'oidc')),
  constraint custom_oauth_providers_identifier_format check (
    identifier ~ '^custom:[a-z0-9]([a-z0-9:-]{0,41}[a-z0-9])?$'
  ),
  constraint custom_oauth_providers_name_length check (char_length(name) between 1 and 100),
  constraint custom_oauth_providers_client_id_length check (char_length(client_id) between 1 and 512),
  constraint custom_oauth_providers_oidc_issuer check (provider_type <> 'oidc' or issuer is not null),
  constraint custom_oauth_providers_oauth2_urls check (
    provider_type <> 'oauth2'
    or (authorization_url is not null and token_url is not null and userinfo_url is not null)
  )
);

create index custom_oauth_providers_provider_type_idx on {{namespace}}.custom_oauth_providers (provider_type);
create index custom_oauth_providers_created_at_idx on {{namespace}}.custom_oauth_providers (created_at);
