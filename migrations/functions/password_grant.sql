-- password_grant(...): the writes of a password sign-in in one function, so that the grant is one
-- database round trip instead of a transaction of about ten statements that held the user's row lock
-- (select … for update) across every round trip, queueing all concurrent sign-ins of one user behind
-- each other. The rules are core's (core/src/sessions/sign-in-password.ts); the in-memory store of
-- core's tests implements the same port (SessionStore.grantPassword) and the contract suite
-- (core/src/testing/sessions/password-grant.contract.ts) runs both.
--
-- The password was verified before the call, against p_verified_hash. The update re-checks that hash
-- on the newest version of the row (a user deleted or whose password changed meanwhile cannot sign in
-- with the old one) and writes only the sign-in's columns, so a concurrent change (an admin update) is
-- never undone. Its row lock lasts until the statement commits: microseconds, not round trips. The
-- last sign-in and update times are the later of the row's and the sign-in's: concurrent sign-ins of
-- one user take the time before their statement and may reach the row lock in any order.
--
-- Writes the `login` audit entry with the client's address (p_ip_address), the session and its first
-- refresh token. Answers the user row as stamped; no row, and nothing written, when refused.
create or replace function {{namespace}}.password_grant(
  p_user_id uuid,
  p_verified_hash text,
  p_upgraded_hash text,
  p_now timestamptz,
  p_session_id uuid,
  p_aal {{namespace}}.aal_level,
  p_amr jsonb,
  p_refresh_token_hash text,
  p_audit_payload jsonb,
  p_ip_address text
)
returns setof {{namespace}}.users
language plpgsql
as $$
declare
  u {{namespace}}.users;
begin
  update {{namespace}}.users
  set
    encrypted_password = coalesce(p_upgraded_hash, encrypted_password),
    -- Never back: of two concurrent sign-ins, the later stamp may reach the row first.
    last_sign_in_at = greatest(last_sign_in_at, p_now),
    updated_at = greatest(updated_at, p_now)
  where id = p_user_id
    and encrypted_password = p_verified_hash
  returning * into u;
  if not found then
    return;
  end if;

  -- The payload core builds (auditPayload), its actor as the row now reads (actorUsername: phone,
  -- else email).
  insert into {{namespace}}.audit_log_entries (payload, created_at, ip_address)
  values (
    p_audit_payload || jsonb_build_object(
      'actor_id', u.id,
      'actor_username', coalesce(nullif(u.phone, ''), nullif(u.email, ''), '')
    ),
    p_now,
    p_ip_address
  );
  insert into {{namespace}}.sessions (id, user_id, aal, amr, created_at, updated_at, refreshed_at, not_after)
  values (p_session_id, u.id, p_aal, p_amr, p_now, p_now, null, null);
  insert into {{namespace}}.refresh_tokens (
    token_hash,
    user_id,
    session_id,
    parent_id,
    revoked,
    created_at,
    updated_at
  )
  values (p_refresh_token_hash, u.id, p_session_id, null, false, p_now, p_now);
  return next u;
end;
$$;
