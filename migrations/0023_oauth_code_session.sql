-- 0023_oauth_code_session: an exchanged authorization code remembers the session it started.
--
-- A code is spent by its first exchange; a second use of it means the code leaked, and RFC 6749
-- §4.1.2 (OAuth 2.1 §4.1.3) asks the server to revoke what the first exchange issued. The request's
-- row is therefore kept once exchanged, with the session's id, instead of being deleted: a replay
-- finds it, ends that session (its refresh tokens with it) and is refused. The row goes when the
-- cleanup removes expired requests. No foreign key: the session may end first (logout, revocation),
-- and a replay then has nothing left to end.
alter table {{namespace}}.oauth_authorizations add column if not exists session_id uuid;
