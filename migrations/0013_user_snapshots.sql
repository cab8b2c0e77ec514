-- 0013_user_snapshots: the user as the API shows it, kept as one json document per user, so that a
-- refresh and the authentication of a request read it with the user's row instead of building it from
-- three tables on every call.
--
-- * `user_snapshots` holds, per user, the body the answers carry: the user's public columns, its
--   identities and its factors. No secret is copied: the password hash, the one-time token hashes and
--   the factors' TOTP secrets stay in their tables (readers take the two the domain user carries from
--   the user's row in the same statement). Building the body cost a refresh an outer join, two
--   aggregating subqueries and 37 columns to render and parse: more than the rotation itself.
-- * Each snapshot records the version (`xmin`) of the user row it was made from. A reader uses it only
--   while the row is still that version, and otherwise builds the body from the tables: the claims of
--   a token (role, metadata, email, phone) never come from a snapshot older than the user's row, even
--   after a later transaction changed the row with the triggers off (`session_replication_role =
--   replica`, disabled triggers; both a superuser's). Identities and factors changed with the triggers
--   off are not detected: the lists stay as they were until the user's next change.
-- * Deferred constraint triggers on users, identities and mfa_factors rewrite a user's snapshot when
--   the transaction that changed the user commits, from the rows as that transaction leaves them,
--   whoever writes them (this server, the admin API, a person with psql). A writer locks the snapshot
--   row first and reads the rows in the next statement: a concurrent writer of the same user waits for
--   the lock and then reads what the first committed, so neither overwrites the other's change with an
--   older view. The only lock they take is that row's, at commit; the table has no foreign key (a
--   deferred trigger deletes a user's snapshot with the user, a truncate of users empties the table;
--   a truncate of identities or factors rebuilds every snapshot), so a writer never waits for a
--   transaction holding the user's row while holding its own locks. A transaction in repeatable read
--   or serializable that changes a user while another commits a change to the same user fails with a
--   serialization error at commit.
-- * The functions are security definer (a role allowed to change `users` need not be granted this
--   table) and executable by their owner only: the server, which migrates its schema, reads them as
--   that owner.
-- * refresh_token_grant answers the snapshot and the two secrets (0012's outcomes and locking otherwise
--   unchanged).

create table {{namespace}}.user_snapshots (
  user_id uuid not null,
  -- The xmin of the user row the body was made from.
  user_xmin xid not null,
  body json not null,
  constraint user_snapshots_pkey primary key (user_id)
);
alter table {{namespace}}.user_snapshots enable row level security;

-- The snapshot of a user as its rows are in the calling statement's snapshot; null for no such user.
-- Identities and factors oldest first, as the user body lists them.
create function {{namespace}}.user_snapshot_body(p_user_id uuid)
returns json
language sql
stable
set search_path to ''
as $$
  select to_json(b)
  from (
    select
      u.id,
      u.aud,
      u.role,
      u.email,
      u.phone,
      u.email_confirmed_at,
      u.phone_confirmed_at,
      u.invited_at,
      u.confirmation_sent_at,
      u.recovery_sent_at,
      u.magic_link_sent_at,
      u.email_change,
      u.email_change_sent_at,
      u.phone_change,
      u.phone_change_sent_at,
      u.reauthentication_sent_at,
      u.last_sign_in_at,
      u.raw_app_meta_data,
      u.raw_user_meta_data,
      u.banned_until,
      u.is_anonymous,
      u.deleted_at,
      u.created_at,
      u.updated_at,
      coalesce(
        (
          select json_agg(i order by i.created_at, i.id)
          from {{namespace}}.identities i
          where i.user_id = u.id
        ),
        '[]'::json
      ) as identities,
      coalesce(
        (
          select json_agg(f order by f.created_at, f.id)
          from (
            select
              id,
              user_id,
              friendly_name,
              factor_type,
              status,
              phone,
              created_at,
              updated_at,
              last_challenged_at
            from {{namespace}}.mfa_factors
            where user_id = u.id
          ) f
        ),
        '[]'::json
      ) as factors
    from {{namespace}}.users u
    where u.id = p_user_id
  ) b
$$;

-- Rewrites the snapshot of one user. Its row is locked first (a missing one is created first: a
-- concurrent creator makes the insert wait, then do nothing); the user's rows are read in the next
-- statement, in a snapshot taken after the lock, so they include whatever the previous holder
-- committed. A user gone by now has no snapshot.
create function {{namespace}}.user_snapshot_write(p_user_id uuid)
returns void
language plpgsql
security definer
set search_path to ''
as $$
begin
  insert into {{namespace}}.user_snapshots (user_id, user_xmin, body)
  values (p_user_id, '0'::xid, '{}'::json)
  on conflict (user_id) do nothing;
  perform 1 from {{namespace}}.user_snapshots where user_id = p_user_id for update;
  update {{namespace}}.user_snapshots s
  set
    user_xmin = u.xmin,
    body = {{namespace}}.user_snapshot_body(u.id)
  from {{namespace}}.users u
  where s.user_id = p_user_id
    and u.id = p_user_id;
  if not found then
    delete from {{namespace}}.user_snapshots where user_id = p_user_id;
  end if;
end;
$$;

-- Every snapshot rewritten, each as a writer does: after a truncate, which fires no row triggers.
create function {{namespace}}.user_snapshots_rebuild()
returns trigger
language plpgsql
security definer
set search_path to ''
as $$
begin
  perform {{namespace}}.user_snapshot_write(id) from {{namespace}}.users order by id;
  return null;
end;
$$;

-- Every snapshot removed: after users are truncated (the table has no foreign key to cascade).
create function {{namespace}}.user_snapshots_clear()
returns trigger
language plpgsql
security definer
set search_path to ''
as $$
begin
  delete from {{namespace}}.user_snapshots;
  return null;
end;
$$;

-- For users: the row's user (a deleted user's snapshot goes with it).
create function {{namespace}}.user_snapshot_of_user()
returns trigger
language plpgsql
security definer
set search_path to ''
as $$
begin
  if tg_op = 'DELETE' then
    delete from {{namespace}}.user_snapshots where user_id = old.id;
    return null;
  end if;
  perform {{namespace}}.user_snapshot_write(new.id);
  if tg_op = 'UPDATE' then
    if old.id is distinct from new.id then
      delete from {{namespace}}.user_snapshots where user_id = old.id;
    end if;
  end if;
  return null;
end;
$$;

-- For identities and factors: the owner before and after the change (the same one, unless a row moved).
create function {{namespace}}.user_snapshot_of_owner()
returns trigger
language plpgsql
security definer
set search_path to ''
as $$
begin
  if tg_op = 'DELETE' then
    perform {{namespace}}.user_snapshot_write(old.user_id);
    return null;
  end if;
  perform {{namespace}}.user_snapshot_write(new.user_id);
  if tg_op = 'UPDATE' then
    if old.user_id is distinct from new.user_id then
      perform {{namespace}}.user_snapshot_write(old.user_id);
    end if;
  end if;
  return null;
end;
$$;

revoke execute on function {{namespace}}.user_snapshot_body(uuid) from public;
revoke execute on function {{namespace}}.user_snapshot_write(uuid) from public;
revoke execute on function {{namespace}}.user_snapshots_rebuild() from public;
revoke execute on function {{namespace}}.user_snapshots_clear() from public;
revoke execute on function {{namespace}}.user_snapshot_of_user() from public;
revoke execute on function {{namespace}}.user_snapshot_of_owner() from public;

create constraint trigger user_snapshot
  after insert or update or delete on {{namespace}}.users
  deferrable initially deferred
  for each row execute function {{namespace}}.user_snapshot_of_user();
create constraint trigger user_snapshot
  after insert or update or delete on {{namespace}}.identities
  deferrable initially deferred
  for each row execute function {{namespace}}.user_snapshot_of_owner();
create constraint trigger user_snapshot
  after insert or update or delete on {{namespace}}.mfa_factors
  deferrable initially deferred
  for each row execute function {{namespace}}.user_snapshot_of_owner();
create trigger user_snapshots_clear
  after truncate on {{namespace}}.users
  for each statement execute function {{namespace}}.user_snapshots_clear();
create trigger user_snapshots_rebuild
  after truncate on {{namespace}}.identities
  for each statement execute function {{namespace}}.user_snapshots_rebuild();
create trigger user_snapshots_rebuild
  after truncate on {{namespace}}.mfa_factors
  for each statement execute function {{namespace}}.user_snapshots_rebuild();

-- The users of before this migration.
insert into {{namespace}}.user_snapshots (user_id, user_xmin, body)
select id, xmin, {{namespace}}.user_snapshot_body(id)
from {{namespace}}.users;

-- refresh_token_grant as in 0012, also answering the user (see the header).
drop function {{namespace}}.refresh_token_grant(text, text, timestamptz, boolean, bigint, bigint, bigint, boolean);

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
  grant_user_id uuid,
  -- The session as it was before this call (the caller stamps the refresh), for every outcome past the
  -- session controls (the caller reads it for "rotated" and "reissued"); null before them.
  session_aal {{namespace}}.aal_level,
  session_amr jsonb,
  session_created_at timestamptz,
  session_updated_at timestamptz,
  session_refreshed_at timestamptz,
  session_not_after timestamptz,
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
      (actor || jsonb_build_object('action', 'token_refreshed'), p_now, ''),
      (actor || jsonb_build_object('action', 'token_revoked'), p_now, '');
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
