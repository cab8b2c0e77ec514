-- 0033_oauth_authorization_assurance: how the user who approved an authorization request had proved
-- who they are, kept with the request until its code is exchanged.
--
-- A user who signs in with a password and a second factor, then consents, reaches aal2 in the session
-- they consent from; the code's exchange starts a new session for the client, which inherits that
-- level (aal) and those methods (amr, the same JSON array as sessions.amr) instead of starting at
-- aal1. Null until approval, and for requests approved without a known session.
alter table {{namespace}}.oauth_authorizations
  add column if not exists aal text check (aal in ('aal1', 'aal2')),
  add column if not exists amr jsonb;
