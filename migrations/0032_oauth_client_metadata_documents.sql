-- 0032_oauth_client_metadata_documents: a client whose client_id is a URL (an OAuth Client ID
-- Metadata Document, draft-ietf-oauth-client-id-metadata-document; the MCP authorization
-- specification's preferred registration).
--
-- Such a client is not registered: its metadata is the JSON document its URL answers, fetched on first
-- use and again once stale. It lives in oauth_clients as any other client, under an internal UUID that
-- authorization requests, consents and sessions reference, with the URL (its public client_id, the one
-- its tokens name) unique among live clients. The row doubles as the document's cache, shared by every
-- instance: metadata_expires_at says when it must be fetched again.
alter table {{namespace}}.oauth_clients
  add column if not exists metadata_url text check (char_length(metadata_url) <= 2048),
  add column if not exists metadata_expires_at timestamptz;

-- One live client per URL: two first uses racing upsert the same row.
create unique index if not exists oauth_clients_metadata_url_key
  on {{namespace}}.oauth_clients (metadata_url)
  where deleted_at is null and metadata_url is not null;
