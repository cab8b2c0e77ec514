-- user_snapshots_clear(): trigger after a truncate of users: every snapshot removed (the table has no
-- foreign key to cascade).
--
-- Part of the user snapshots (`user_snapshots`, created by migration 0013, whose header gives the
-- rules): the user as the API shows it, kept as one json document per user and rewritten by deferred
-- constraint triggers when a transaction that changed the user commits. Security definer (a role
-- allowed to change `users` need not be granted the table) and executable by its owner only.
create or replace function {{namespace}}.user_snapshots_clear()
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

revoke execute on function {{namespace}}.user_snapshots_clear() from public;
