-- user_snapshot_write(user): rewrites the snapshot of one user. Its row is locked first (a missing
-- one is created first: a concurrent creator makes the insert wait, then do nothing); the user's rows
-- are read in the next statement, in a snapshot taken after the lock, so they include whatever the
-- previous holder committed. A user gone by now has no snapshot.
--
-- Part of the user snapshots (`user_snapshots`, created by migration 0013, whose header gives the
-- rules): the user as the API shows it, kept as one json document per user and rewritten by deferred
-- constraint triggers when a transaction that changed the user commits. Security definer (a role
-- allowed to change `users` need not be granted the table) and executable by its owner only.
create or replace function {{namespace}}.user_snapshot_write(p_user_id uuid)
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

revoke execute on function {{namespace}}.user_snapshot_write(uuid) from public;
