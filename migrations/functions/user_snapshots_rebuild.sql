-- user_snapshots_rebuild(): trigger after a truncate of identities or mfa_factors (which fires no
-- row triggers): every snapshot rewritten, set-wise (user_snapshots_write_set).
--
-- Part of the user snapshots (`user_snapshots`, created by migration 0013, whose header gives the
-- rules): the user as the API shows it, kept as one json document per user and rewritten by deferred
-- constraint triggers when a transaction that changed the user commits. Security definer (a role
-- allowed to change `users` need not be granted the table) and executable by its owner only.
create or replace function {{namespace}}.user_snapshots_rebuild()
returns trigger
language plpgsql
security definer
set search_path to ''
as $$
begin
  perform {{namespace}}.user_snapshots_write_set(array(select id from {{namespace}}.users order by id));
  return null;
end;
$$;

revoke execute on function {{namespace}}.user_snapshots_rebuild() from public;
