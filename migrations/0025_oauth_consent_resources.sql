-- 0025_oauth_consent_resources: a consent remembers the resources the user approved its client for.
--
-- A client's authorization request may name the resource (RFC 8707) its tokens are for, and that
-- resource server accepts the tokens (their `aud` names it). A consent to a client's scopes is
-- therefore no consent to every resource: the request is approved without asking the user only when
-- the resource it names, if any, is among those the user approved for the client before. Consents
-- given before this column existed name none, so a request naming a resource asks the user again.
alter table {{namespace}}.oauth_consents
  add column if not exists resources text[] not null default '{}';
