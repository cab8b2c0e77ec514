-- 0007_sessions_controls: what session controls and the admin soft delete need of the schema.
--
-- The session controls (SESSIONS_TIMEBOX, SESSIONS_INACTIVITY_TIMEOUT, SESSIONS_SINGLE_PER_USER) read
-- columns 0001 already has: sessions.created_at, refreshed_at (set on every refresh) and not_after.
-- The comments below say so for whoever reads the schema without the code.
comment on column {{namespace}}.sessions.refreshed_at is
  'Last refresh of the session (null until the first one); SESSIONS_INACTIVITY_TIMEOUT counts from it, else from created_at.';
comment on column {{namespace}}.sessions.not_after is
  'Hard end of the session, if any; refresh is refused after it. SESSIONS_TIMEBOX counts from created_at instead.';
comment on column {{namespace}}.users.deleted_at is
  'Set by an admin soft delete (should_soft_delete): email, phone and identities are then one-way hashes.';

-- A soft delete replaces the email by base64url(sha256(id || email)), as the reference does: mixed case,
-- so the lowercase rule cannot hold for soft-deleted rows. Live rows keep it (the unique key on email
-- relies on it).
alter table {{namespace}}.users
  drop constraint users_email_lowercase_check,
  add constraint users_email_lowercase_check check (email = lower(email) or deleted_at is not null);
