-- user_snapshots_write_set(users): rewrites the snapshots of many users in four statements, whatever
-- their number, with the locking of user_snapshot_write: the missing rows are created, every row is
-- locked in user order (a single writer locks one row, so neither waits for the other in a circle),
-- and the bodies are built in the next statement, which sees whatever a previous holder of a lock
-- committed. Users gone by now have no snapshot.
--
-- Part of the user snapshots (`user_snapshots`, created by migration 0013, whose header gives the
-- rules); used by user_snapshots_flush_users and user_snapshots_rebuild. Security
-- definer and executable by its owner only.
create or replace function {{namespace}}.user_snapshots_write_set(p_user_ids uuid[])
returns void
language plpgsql
security definer
set search_path to ''
as $$
begin
  insert into {{namespace}}.user_snapshots (user_id, user_xmin, body)
  select wanted.id, '0'::xid, '{}'::json
  from (select distinct id from unnest(p_user_ids) as given (id)) as wanted
  order by wanted.id
  on conflict (user_id) do nothing;
  perform 1
  from {{namespace}}.user_snapshots s
  join unnest(p_user_ids) as wanted (id) on s.user_id = wanted.id
  order by s.user_id
  for update of s;
  update {{namespace}}.user_snapshots s
  set
    user_xmin = b.user_xmin,
    body = b.body
  from {{namespace}}.user_snapshot_bodies(p_user_ids) b
  where s.user_id = b.user_id;
  delete from {{namespace}}.user_snapshots s
  using unnest(p_user_ids) as wanted (id)
  where s.user_id = wanted.id
    and not exists (select 1 from {{namespace}}.users u where u.id = wanted.id);
end;
$$;

revoke execute on function {{namespace}}.user_snapshots_write_set(uuid[]) from public;
