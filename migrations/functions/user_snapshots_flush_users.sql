-- user_snapshots_flush_users(users): ends a bulk write of the given users: rewrites their snapshots in
-- a few statements whatever their number, instead of the one deferred trigger call per row that builds
-- one user's snapshot at commit (about 0.4 ms a user: 17 s for 40,000).
--
-- How: the row triggers' writes queued so far are run at once (`set constraints … immediate`) while a
-- transaction-local setting makes them skip inserts and updates (deletes are still followed row by
-- row); then user_snapshots_write_set rewrites the given users, with a single writer's locking.
-- Changes after the call are followed row by row again.
--
-- * The caller names every user whose row, identity or factor the transaction inserted or updated so
--   far, in a savepoint or not (a writer knows them: the rows it wrote, their owners): the queued
--   writes of a user not named are skipped too, and that user keeps its old snapshot — which a reader
--   does not serve once the user's row changed (migration 0013), but whose identities and factors
--   would show the old lists. A name too many costs one rewrite; a user that does not exist (its
--   rows refused, rolled back to a savepoint) gets no snapshot.
-- * Unlike user_snapshots_flush, it finds nothing by itself, so it also sees rows written in a
--   subtransaction (a savepoint), and it reads no table whole: one call per batch of an import costs
--   the batch, not the table.
-- * The setting is one any role may set; a role that may write users, identities or factors may
--   change any user anyway, and skipping a snapshot rewrite leaves it only stale, never wrong about
--   the user's row (0013).
--
-- Part of the user snapshots (`user_snapshots`, created by migration 0013, whose header gives the
-- rules); used by user_snapshots_flush and the import of a GoTrue database. Security definer and
-- executable by its owner only.
create or replace function {{namespace}}.user_snapshots_flush_users(p_user_ids uuid[])
returns void
language plpgsql
security definer
set search_path to ''
as $$
begin
  perform set_config('authsvc.user_snapshots_bulk', '{{namespace}}', true);
  set constraints {{namespace}}.user_snapshot immediate;
  set constraints {{namespace}}.user_snapshot deferred;
  perform set_config('authsvc.user_snapshots_bulk', '', true);
  if cardinality(p_user_ids) > 0 then
    perform {{namespace}}.user_snapshots_write_set(p_user_ids);
  end if;
end;
$$;

revoke execute on function {{namespace}}.user_snapshots_flush_users(uuid[]) from public;
