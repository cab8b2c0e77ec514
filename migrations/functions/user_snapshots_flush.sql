-- user_snapshots_flush(): ends a bulk write of users (a seed, an import, a rebuild): rewrites, in a
-- few statements whatever their number, the snapshot of every user whose row, identity or factor the
-- calling transaction inserted or updated so far, instead of the one deferred trigger call per row
-- that builds one user's snapshot at commit (about 0.4 ms a user: 17 s for 40,000).
--
-- How: the row triggers' writes queued so far are run at once (`set constraints … immediate`) while a
-- transaction-local setting makes them skip inserts and updates (deletes are still followed row by
-- row); then user_snapshots_write_set rewrites the users whose rows carry this transaction's id
-- (`xmin`), with a single writer's locking. Changes after the call are followed row by row again.
--
-- * Call it at the top level of the transaction, after its writes. A row written inside a
--   subtransaction (a savepoint) carries the subtransaction's id and is not found: its user keeps the
--   row triggers' write if it was queued after the call, else its old snapshot — which a reader does
--   not serve once the user's row changed (migration 0013); identities and factors would show the
--   old lists.
-- * The setting is one any role may set; a role that may write users, identities or factors may
--   change any user anyway, and skipping a snapshot rewrite leaves it only stale, never wrong about
--   the user's row (0013).
--
-- Part of the user snapshots (`user_snapshots`, created by migration 0013, whose header gives the
-- rules). Security definer and executable by its owner only.
create or replace function {{namespace}}.user_snapshots_flush()
returns void
language plpgsql
security definer
set search_path to ''
as $$
declare
  own xid := pg_current_xact_id()::xid;
  written uuid[];
begin
  perform set_config('authsvc.user_snapshots_bulk', '{{namespace}}', true);
  set constraints {{namespace}}.user_snapshot immediate;
  set constraints {{namespace}}.user_snapshot deferred;
  perform set_config('authsvc.user_snapshots_bulk', '', true);
  select array_agg(distinct w.user_id order by w.user_id)
  into written
  from (
    select u.id as user_id from {{namespace}}.users u where u.xmin = own
    union all
    select i.user_id from {{namespace}}.identities i where i.xmin = own
    union all
    select f.user_id from {{namespace}}.mfa_factors f where f.xmin = own
  ) w;
  if written is not null then
    perform {{namespace}}.user_snapshots_write_set(written);
  end if;
end;
$$;

revoke execute on function {{namespace}}.user_snapshots_flush() from public;
