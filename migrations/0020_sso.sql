-- 0020_sso: SAML 2.0 single sign-on, as the reference's migrations 20221021082433_add_saml,
-- 20230818113222_add_flow_state_to_relay_state, 20240314092811_add_saml_name_id_format and
-- 20250717082212_add_disabled_to_sso_providers.
--
-- A relay state keeps the PKCE challenge of the flow it starts instead of pointing at a flow_state row:
-- the flow state is written when the assertion is accepted, as external sign-in writes it at its
-- callback, so the two tables are cleaned apart. A relay state is single use: the assertion consumer
-- deletes its row in the one statement that reads it (`delete … returning`).

create table {{namespace}}.sso_providers (
  id uuid not null,
  resource_id text,
  disabled boolean,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint sso_providers_pkey primary key (id),
  constraint "resource_id not empty" check (resource_id is null or char_length(resource_id) > 0)
);

create unique index sso_providers_resource_id_idx on {{namespace}}.sso_providers (lower(resource_id));

create table {{namespace}}.sso_domains (
  id uuid not null,
  sso_provider_id uuid not null,
  domain text not null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint sso_domains_pkey primary key (id),
  constraint sso_domains_sso_provider_id_fkey foreign key (sso_provider_id)
    references {{namespace}}.sso_providers (id) on delete cascade,
  constraint "domain not empty" check (char_length(domain) > 0)
);

create unique index sso_domains_domain_idx on {{namespace}}.sso_domains (lower(domain));
create index sso_domains_sso_provider_id_idx on {{namespace}}.sso_domains (sso_provider_id);

create table {{namespace}}.saml_providers (
  id uuid not null,
  sso_provider_id uuid not null,
  entity_id text not null,
  metadata_xml text not null,
  metadata_url text,
  attribute_mapping jsonb,
  name_id_format text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint saml_providers_pkey primary key (id),
  constraint saml_providers_entity_id_key unique (entity_id),
  constraint saml_providers_sso_provider_id_fkey foreign key (sso_provider_id)
    references {{namespace}}.sso_providers (id) on delete cascade,
  constraint "metadata_xml not empty" check (char_length(metadata_xml) > 0),
  constraint "metadata_url not empty" check (metadata_url is null or char_length(metadata_url) > 0),
  constraint "entity_id not empty" check (char_length(entity_id) > 0)
);

create index saml_providers_sso_provider_id_idx on {{namespace}}.saml_providers (sso_provider_id);

create table {{namespace}}.saml_relay_states (
  id uuid not null,
  sso_provider_id uuid not null,
  -- The ID of the AuthnRequest: the response's InResponseTo must name it.
  request_id text not null,
  for_email text,
  redirect_to text,
  code_challenge text,
  code_challenge_method text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint saml_relay_states_pkey primary key (id),
  constraint saml_relay_states_sso_provider_id_fkey foreign key (sso_provider_id)
    references {{namespace}}.sso_providers (id) on delete cascade,
  constraint "request_id not empty" check (char_length(request_id) > 0)
);

create index saml_relay_states_sso_provider_id_idx on {{namespace}}.saml_relay_states (sso_provider_id);
create index saml_relay_states_created_at_idx on {{namespace}}.saml_relay_states (created_at desc);
