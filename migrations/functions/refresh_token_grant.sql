-- refresh_token_grant(...): the whole state transition of the refresh-token grant in one function, so
-- a refresh is one database round trip. The rules are core's (core/src/sessions/refresh-decision.ts,
-- "States and transitions" of the spec), and the in-memory store of core's tests implements the same
-- port with that code; the contract suite (core/src/testing/sessions/refresh-grant.contract.ts) runs
-- both. Outcomes (grant_outcome):
--
--   not_found  no such token, or its session or user is gone
--   client_required / client_not_allowed
--              the session was issued to an OAuth client other than p_client_id (none: `POST /token`),
--              or to none while a client authenticated: nothing written
--   dpop_key_mismatch
--              the session is bound to a DPoP key (RFC 9449 §5) and p_dpop_jkt, the key the request
--              proved, is another or none: nothing written
--   banned     the user is banned at p_now: nothing written, the token stays usable
--   session_expired / session_inactive / session_superseded
--              the session controls (core/src/sessions/session-limits.ts): the session's not_after or
--              timebox passed, it was idle longer than the inactivity timeout, or (single session per
--              user) another live session of the user was active more recently; nothing written
--   rotated    the token was current: revoked, its child (p_child_hash) inserted, the session's
--              refresh time written, two audit entries (`token_refreshed`, `token_revoked`) with the
--              client's address (p_ip_address)
--   reissued   the previous token again within the reuse interval, its child still the session's
--              current token: nothing but the refresh time written, the same child is answered
--   refused    a revoked token while rotation is disabled: nothing written
--   reused     any other revoked token: its descendants revoked and the session deleted (theft)
--
-- Past the session controls it also answers the session as it was before the call and the user: its
-- snapshot (user_snapshots) when made from the row as it is, else the body built now, and the two
-- secrets of its row that a snapshot leaves out.
--
-- Locking: one statement locks the token's session and then the token (`for update of ls, lt`, the
-- order every writer of a session's tokens follows) and reads the user with them. Concurrent refreshes
-- of one session queue on the session's lock; a row that had to wait is re-read at its newest
-- committed version, so the second of two simultaneous refreshes sees the first one's rotation (and,
-- within the interval, answers the same child).
--
-- Planning: `rows 1`, because a set-returning function is planned as returning 1,000 rows, and a
-- statement that joins tables to it would scan them whole. The single-session check is an `if`
-- inside an `if`: one condition with the option would be planned anew on every call while the option
-- is off; as written, the statements are planned once per connection.
create or replace function {{namespace}}.refresh_token_grant(
  p_token_hash text,
  p_child_hash text,
  p_now timestamptz,
  p_rotation_enabled boolean,
  p_reuse_interval_ms bigint,
  p_timebox_ms bigint,
  p_inactivity_timeout_ms bigint,
  p_single_per_user boolean,
  p_ip_address text,
  -- The OAuth client that authenticated (`POST /oauth/token`), null for `POST /token`.
  p_client_id uuid,
  -- The thumbprint of the DPoP key the request proved (RFC 9449), null without a proof.
  p_dpop_jkt text
)
returns table (
  grant_outcome text,
  grant_session_id uuid,
  grant_user_id uuid,
  -- The session as it was before this call (the caller stamps the refresh), for every outcome past the
  -- session controls (the caller reads it for "rotated" and "reissued"); null before them.
  session_aal {{namespace}}.aal_level,
  session_amr jsonb,
  session_created_at timestamptz,
  session_updated_at timestamptz,
  session_refreshed_at timestamptz,
  session_not_after timestamptz,
  session_oauth_client_id uuid,
  session_scopes text,
  session_resource text,
  session_dpop_jkt text,
  -- The user, for the outcomes past the session controls as the session fields: its snapshot when the
  -- snapshot was made from the row as it is (else the body built now), and the two secrets of its row
  -- that a snapshot leaves out.
  user_body json,
  user_encrypted_password text,
  user_reauthentication_token text
)
language plpgsql
-- One row, always: without this the planner expects 1,000 and joins the caller's sessions and users
-- by scanning them whole.
rows 1
as $$
declare
  t {{namespace}}.refresh_tokens;
  s {{namespace}}.sessions;
  user_banned_until timestamptz;
  actor_username text;
  active {{namespace}}.refresh_tokens;
  last_active timestamptz;
  actor jsonb;
  row_version xid;
  snapshot_version xid;
  snapshot json;
  password_hash text;
  reauthentication_hash text;
begin
  -- The presented token with its session, locked in that order (session, then token: the order every
  -- writer of a session's tokens follows), and what the ban check and the audit entries need of its
  -- user. Concurrent refreshes of one session queue on the session's lock; one that waited reads the
  -- session and the token as the refresh it waited for committed them (a locked row is re-read at its
  -- newest version), so a token rotated meanwhile is seen revoked.
  select
    ls.id, ls.user_id, ls.created_at, ls.updated_at, ls.refreshed_at, ls.not_after, ls.aal, ls.amr,
    ls.oauth_client_id, ls.scopes, ls.resource, ls.dpop_jkt,
    lt.id, lt.token_hash, lt.user_id, lt.session_id, lt.parent_id, lt.revoked, lt.created_at, lt.updated_at,
    lu.banned_until,
    coalesce(nullif(lu.phone, ''), nullif(lu.email, ''), ''),
    lu.xmin,
    lu.encrypted_password,
    lu.reauthentication_token,
    lus.user_xmin,
    lus.body
  into
    s.id, s.user_id, s.created_at, s.updated_at, s.refreshed_at, s.not_after, s.aal, s.amr,
    s.oauth_client_id, s.scopes, s.resource, s.dpop_jkt,
    t.id, t.token_hash, t.user_id, t.session_id, t.parent_id, t.revoked, t.created_at, t.updated_at,
    user_banned_until, actor_username,
    row_version,
    password_hash,
    reauthentication_hash,
    snapshot_version,
    snapshot
  from {{namespace}}.refresh_tokens lt
  join {{namespace}}.sessions ls on ls.id = lt.session_id
  join {{namespace}}.users lu on lu.id = lt.user_id
  left join {{namespace}}.user_snapshots lus on lus.user_id = lt.user_id
  where lt.token_hash = p_token_hash
  -- (ls, lt, lu, lus: the locked session and token, the user and its snapshot; s and t are this
  -- function's variables.)
  for update of ls, lt;
  if not found then
    grant_outcome := 'not_found';
    return next;
    return;
  end if;
  -- Every other outcome names the token's session and user.
  grant_session_id := t.session_id;
  grant_user_id := t.user_id;
  -- A session issued to an OAuth client is refreshed by that client only, and only at its endpoint.
  if s.oauth_client_id is not null and p_client_id is distinct from s.oauth_client_id then
    grant_outcome := 'client_required';
    return next;
    return;
  end if;
  if s.oauth_client_id is null and p_client_id is not null then
    grant_outcome := 'client_not_allowed';
    return next;
    return;
  end if;
  -- A session bound to a DPoP key is refreshed with a proof of that key only (RFC 9449 §5).
  if s.dpop_jkt is not null and p_dpop_jkt is distinct from s.dpop_jkt then
    grant_outcome := 'dpop_key_mismatch';
    return next;
    return;
  end if;
  if user_banned_until is not null and user_banned_until > p_now then
    grant_outcome := 'banned';
    return next;
    return;
  end if;

  -- The session controls, in the reference's order, each limit strictly after its instant. Active
  -- last: the last refresh, else the presented token's last change when later than the creation.
  if s.not_after is not null and p_now > s.not_after then
    grant_outcome := 'session_expired';
    return next;
    return;
  end if;
  if p_timebox_ms > 0 and p_now > s.created_at + p_timebox_ms * interval '1 millisecond' then
    grant_outcome := 'session_expired';
    return next;
    return;
  end if;
  last_active := coalesce(s.refreshed_at, greatest(s.created_at, t.updated_at));
  if p_inactivity_timeout_ms > 0
    and p_now > last_active + p_inactivity_timeout_ms * interval '1 millisecond' then
    grant_outcome := 'session_inactive';
    return next;
    return;
  end if;
  -- Single session per user: another session that has not ended was active more recently. (Two
  -- `if`s: one condition with the option would be planned anew on every call while it is off.)
  if p_single_per_user then
    if exists (
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
      grant_outcome := 'session_superseded';
      return next;
      return;
    end if;
  end if;

  -- The session as it was before this call and the user: what a rotation or a reissue answers with.
  session_aal := s.aal;
  session_amr := s.amr;
  session_created_at := s.created_at;
  session_updated_at := s.updated_at;
  session_refreshed_at := s.refreshed_at;
  session_not_after := s.not_after;
  session_oauth_client_id := s.oauth_client_id;
  session_scopes := s.scopes;
  session_resource := s.resource;
  session_dpop_jkt := s.dpop_jkt;
  if snapshot_version is not null and snapshot_version = row_version then
    user_body := snapshot;
  else
    user_body := {{namespace}}.user_snapshot_body(t.user_id);
  end if;
  user_encrypted_password := password_hash;
  user_reauthentication_token := reauthentication_hash;

  if not t.revoked then
    -- The payload the audit log writes (actor_username: phone, else email, as actorUsername).
    actor := jsonb_build_object(
      'actor_id', t.user_id,
      'actor_username', actor_username,
      'actor_via_sso', false,
      'log_type', 'token'
    );
    -- Every write of a rotation in one statement.
    with revoked as (
      update {{namespace}}.refresh_tokens
      set
        revoked = true,
        updated_at = p_now
      where id = t.id
    ),
    child as (
      insert into {{namespace}}.refresh_tokens (
        token_hash,
        user_id,
        session_id,
        parent_id,
        revoked,
        created_at,
        updated_at
      )
      values (p_child_hash, t.user_id, t.session_id, t.id, false, p_now, p_now)
    ),
    refreshed as (
      update {{namespace}}.sessions
      set
        refreshed_at = p_now,
        updated_at = p_now
      where id = t.session_id
    )
    insert into {{namespace}}.audit_log_entries (payload, created_at, ip_address)
    values
      (actor || jsonb_build_object('action', 'token_refreshed'), p_now, p_ip_address),
      (actor || jsonb_build_object('action', 'token_revoked'), p_now, p_ip_address);
    grant_outcome := 'rotated';
    return next;
    return;
  end if;

  if not p_rotation_enabled then
    grant_outcome := 'refused';
    return next;
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
    grant_outcome := 'reissued';
    return next;
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
  grant_outcome := 'reused';
  return next;
end;
$$;
