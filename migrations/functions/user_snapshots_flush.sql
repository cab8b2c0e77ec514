-- user_snapshots_flush(): ends a bulk write of users (a seed, a rebuild): rewrites, in a few
-- statements whatever their number, the snapshot of every user whose row, identity or factor the
-- calling transaction inserted or updated so far, instead of the one deferred trigger call per row
-- that builds one user's snapshot at commit (about 0.4 ms a user: 17 s for 40,000).
--
-- How: the users are those whose rows carry this transaction's id (`xmin`); user_snapshots_flush_users
-- rewrites them (its header gives the rule: the row triggers' queued writes skipped, one set-wise
-- rewrite). Each of the three tables is read whole to find them: a call suits one large write, not
-- every batch of a long one (a writer that knows its users calls user_snapshots_flush_users).
--
-- * Call it at the top level of the transaction, after its writes. A row written inside a
--   subtransaction (a savepoint) carries the subtransaction's id and is not found: its user keeps the
--   row triggers' write if it was queued after the call, else its old snapshot — which a reader does
--   not serve once the user's row changed (migration 0013); identities and factors would show the
--   old lists.
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
  select array_agg(distinct w.user_id order by w.user_id)
  into written
  from (
    select u.id as user_id from {{namespace}}.users u where u.xmin = own
    union all
    select i.user_id from {{namespace}}.identities i where i.xmin = own
    union all
    select f.user_id from {{namespace}}.mfa_factors f where f.xmin = own
  ) w;
  perform {{namespace}}.user_snapshots_flush_users(coalesce(written, '{}'));
end;
$$;

revoke execute on function {{namespace}}.user_snapshots_flush() from public;
