-- 0014_password_grant_stamp: password_grant (0009) stamps the user's last sign-in and update times
-- with the later of the row's and the sign-in's. Concurrent sign-ins of one user take the time before
-- their statement, and their backends reach the row lock in whatever order the database schedules
-- them: with `= p_now` the row could keep an earlier sign-in's time after a later one's. Everything
-- else is 0009's (its header gives the rules).
create or replace function {{namespace}}.password_grant(
  p_user_id uuid,
  p_verified_hash text,
  p_upgraded_hash text,
  p_now timestamptz,
  p_session_id uuid,
  p_aal {{namespace}}.aal_level,
  p_amr jsonb,
  p_refresh_token_hash text,
  p_audit_payload jsonb
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
    ''
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
