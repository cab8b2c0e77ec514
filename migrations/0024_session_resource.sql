-- 0024_session_resource: an OAuth client's session remembers the resource its request named.
--
-- A client's authorization request may name the resource (RFC 8707) its tokens are for, e.g. an MCP
-- server; the resource server checks that a token's `aud` names it (the MCP authorization spec). The
-- code exchange copies the request's resource to the session, so that every access token of the
-- session, refreshed ones included, carries it in `aud` beside the user's audience. The refresh
-- function answers it: its old signature is dropped here, and its file
-- (functions/refresh_token_grant.sql) creates the new one right after the migrations.
alter table {{namespace}}.sessions
  add column if not exists resource text check (char_length(resource) <= 2048);

drop function if exists {{namespace}}.refresh_token_grant(text, text, timestamptz, boolean, bigint, bigint, bigint, boolean, text, uuid);
