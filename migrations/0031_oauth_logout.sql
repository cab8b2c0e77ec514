-- 0031_oauth_logout: OpenID Connect RP-initiated and back-channel logout.
--
-- A client registers where a user may be sent after signing out (`post_logout_redirect_uris`, a JSON
-- array compared as exact strings) and where logout tokens are POSTed (`backchannel_logout_uri`).
--
-- `oauth_logout_deliveries` is the outbox of back-channel logout: a row is written in the very
-- transaction that deletes a session bound to a client with a `backchannel_logout_uri`, by a trigger
-- on `sessions`. Sessions end on many paths — sign-out of any scope, `/oauth/revoke`, refresh-token
-- reuse (inside the refresh_token_grant function), a code replay, grant revocation, a client's
-- deletion, admin and password-change revocation, a user's deletion (the foreign key's cascade) — and
-- a trigger is the one place every one of them, present and future, passes through: no path can end a
-- client's session without its logout being recorded, and none records one for a session that stays
-- (a rolled back transaction takes its row with it). The cleanup's removal of sessions long expired
-- says so with `authsvc.session_end = 'expired'` and records nothing: no user signed out.
-- A ban keeps the sessions but revokes their refresh tokens, and records their logouts itself.
--
-- Rows are delivered after the commit by each instance's sender (`for update skip locked`), retried
-- with backoff, and removed once delivered or given up (attempts, age). The uri is copied into the row
-- so that a client deleted meanwhile is still told. At most one row per (session, client).
-- needs functions: oauth_logout_recorded

alter table {{namespace}}.oauth_clients
  add column if not exists post_logout_redirect_uris jsonb not null default '[]'::jsonb,
  add column if not exists backchannel_logout_uri text check (char_length(backchannel_logout_uri) <= 2048),
  add column if not exists backchannel_logout_session_required boolean not null default false;

create table {{namespace}}.oauth_logout_deliveries (
  id uuid not null default gen_random_uuid(),
  client_id uuid not null,
  session_id uuid not null,
  user_id uuid not null,
  uri text not null,
  attempts integer not null default 0,
  created_at timestamptz not null default now(),
  next_attempt_at timestamptz not null default now(),
  constraint oauth_logout_deliveries_pkey primary key (id),
  constraint oauth_logout_deliveries_session_client_key unique (session_id, client_id)
);
create index oauth_logout_deliveries_due_idx on {{namespace}}.oauth_logout_deliveries (next_attempt_at);
alter table {{namespace}}.oauth_logout_deliveries enable row level security;

create trigger oauth_logout_recorded
  after delete on {{namespace}}.sessions
  referencing old table as ended_sessions
  for each statement execute function {{namespace}}.oauth_logout_recorded();
