-- 0008_refresh_rotation: the whole state transition of the refresh-token grant in one function, so a
-- refresh is one database round trip instead of a transaction of eight. The rules are core's
-- (core/src/sessions/refresh-decision.ts, "States and transitions" of the spec), and the in-memory
-- store of core's tests implements the same port with that code; the contract suite runs both.
--
--   not_found  no such token, or its session or user is gone
--   banned     the user is banned at p_now: nothing written, the token stays usable
--   session_expired / session_inactive / session_superseded
--              the session controls (core/src/sessions/session-limits.ts): the session's not_after or
--              timebox passed, it was idle longer than the inactivity timeout, or (single session per
--              user) another live session of the user was active more recently; nothing written
--   rotated    the token was current: revoked, its child (p_child_hash) inserted, two audit entries
--   reissued   the previous token again within the reuse interval, its child still the session's
--              current token: nothing but the refresh time written, the same child is answered
--   refused    a revoked token while rotation is disabled: nothing written
--   reused     any other revoked token: its descendants revoked and the session deleted (theft)
--
-- Concurrent refreshes of one session queue on the session's row lock; each re-reads the token
-- afterwards, so the second of two simultaneous refreshes sees the first one's rotation (and, within
-- the interval, answers the same child).
create function {{namespace}}.refresh_token_grant(
  p_token_hash text,
  p_child_hash text,
  p_now timestamptz,
  p_rotation_enabled boolean,
  p_reuse_interval_ms bigint,
  p_timebox_ms bigint,
  p_inactivity_timeout_ms bigint,
  p_single_per_user boolean
)
returns table (
  grant_outcome text,
  grant_session_id uuid,
  grant_user_id uuid
)
language plpgsql
as $$
declare
  t {{namespace}}.refresh_tokens;
  u {{namespace}}.users;
  active {{namespace}}.refresh_tokens;
  s {{namespace}}.sessions;
  last_active timestamptz;
  actor jsonb;
begin
  select * into t from {{namespace}}.refresh_tokens where token_hash = p_token_hash;
  if not found then
    return query select 'not_found', null::uuid, null::uuid;
    return;
  end if;

  select * into s from {{namespace}}.sessions where id = t.session_id for update;
  if not found then
    return query select 'not_found', null::uuid, null::uuid;
    return;
  end if;
  -- A new statement, a new snapshot: what a refresh we waited for has committed is visible here.
  select * into t from {{namespace}}.refresh_tokens where token_hash = p_token_hash;
  if not found then
    return query select 'not_found', null::uuid, null::uuid;
    return;
  end if;

  select * into u from {{namespace}}.users where id = t.user_id;
  if not found then
    return query select 'not_found', null::uuid, null::uuid;
    return;
  end if;
  if u.banned_until is not null and u.banned_until > p_now then
    return query select 'banned', t.session_id, t.user_id;
    return;
  end if;

  -- The session controls, in the reference's order, each limit strictly after its instant. Active
  -- last: the last refresh, else the presented token's last change when later than the creation.
  if s.not_after is not null and p_now > s.not_after then
    return query select 'session_expired', t.session_id, t.user_id;
    return;
  end if;
  if p_timebox_ms > 0 and p_now > s.created_at + p_timebox_ms * interval '1 millisecond' then
    return query select 'session_expired', t.session_id, t.user_id;
    return;
  end if;
  last_active := coalesce(s.refreshed_at, greatest(s.created_at, t.updated_at));
  if p_inactivity_timeout_ms > 0
    and p_now > last_active + p_inactivity_timeout_ms * interval '1 millisecond' then
    return query select 'session_inactive', t.session_id, t.user_id;
    return;
  end if;
  -- Single session per user: another session that has not ended was active more recently.
  if p_single_per_user and exists (
    select 1
    from {{namespace}}.sessions o
    where o.user_id = s.user_id
      and o.id <> s.id
      and (o.not_after is null or p_now <= o.not_after)
      and (p_timebox_ms <= 0 or p_now <= o.created_at + p_timebox_ms * interval '1 millisecond')
      and (
        p_inactivity_timeout_ms <= 0
        or p_now <= coalesce(o.refreshed_at, o.created_at) + p_inactivity_timeout_ms * interval '1 millisecond'
      )
      and coalesce(o.refreshed_at, o.created_at) > last_active
  ) then
    return query select 'session_superseded', t.session_id, t.user_id;
    return;
  end if;

  if not t.revoked then
    update {{namespace}}.refresh_tokens
    set
      revoked = true,
      updated_at = p_now
    where id = t.id;
    insert into {{namespace}}.refresh_tokens (
      token_hash,
      user_id,
      session_id,
      parent_id,
      revoked,
      created_at,
      updated_at
    )
    values (p_child_hash, t.user_id, t.session_id, t.id, false, p_now, p_now);
    -- The payload the audit log writes (actor_username: phone, else email, as actorUsername).
    actor := jsonb_build_object(
      'actor_id', u.id,
      'actor_username', coalesce(nullif(u.phone, ''), nullif(u.email, ''), ''),
      'actor_via_sso', false,
      'log_type', 'token'
    );
    insert into {{namespace}}.audit_log_entries (payload, created_at, ip_address)
    values
      (actor || jsonb_build_object('action', 'token_refreshed'), p_now, ''),
      (actor || jsonb_build_object('action', 'token_revoked'), p_now, '');
    update {{namespace}}.sessions
    set
      refreshed_at = p_now,
      updated_at = p_now
    where id = t.session_id;
    return query select 'rotated', t.session_id, t.user_id;
    return;
  end if;

  if not p_rotation_enabled then
    return query select 'refused', t.session_id, t.user_id;
    return;
  end if;

  select * into active
  from {{namespace}}.refresh_tokens
  where session_id = t.session_id
    and revoked = false
  order by id desc
  limit 1;
  -- A client that lost the answer to its last refresh presents the previous token again shortly
  -- after: it gets the same child back. Times are whole milliseconds (they come from the server).
  if found
    and active.parent_id = t.id
    and active.token_hash = p_child_hash
    and (extract(epoch from (p_now - t.updated_at)) * 1000) <= p_reuse_interval_ms then
    update {{namespace}}.sessions
    set
      refreshed_at = p_now,
      updated_at = p_now
    where id = t.session_id;
    return query select 'reissued', t.session_id, t.user_id;
    return;
  end if;

  -- Someone else holds a copy of the chain: revoke what descends from the token, end the session.
  with recursive descendants (id) as (
    select r.id from {{namespace}}.refresh_tokens r where r.parent_id = t.id
    union
    select r.id
    from {{namespace}}.refresh_tokens r
    join descendants d on r.parent_id = d.id
  )
  update {{namespace}}.refresh_tokens
  set
    revoked = true,
    updated_at = p_now
  where id in (select id from descendants)
    and revoked = false;
  delete from {{namespace}}.sessions where id = t.session_id;
  return query select 'reused', t.session_id, t.user_id;
end;
$$;
