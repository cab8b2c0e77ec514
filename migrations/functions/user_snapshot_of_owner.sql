-- user_snapshot_of_owner(): row trigger on identities and mfa_factors: rewrites the owner's snapshot
-- before and after the change (the same one, unless a row moved).
--
-- Part of the user snapshots (`user_snapshots`, created by migration 0013, whose header gives the
-- rules): the user as the API shows it, kept as one json document per user and rewritten by deferred
-- constraint triggers when a transaction that changed the user commits. Security definer (a role
-- allowed to change `users` need not be granted the table) and executable by its owner only.
create or replace function {{namespace}}.user_snapshot_of_owner()
returns trigger
language plpgsql
security definer
set search_path to ''
as $$
begin
  -- Run early by user_snapshots_flush_users, which then rewrites the named users set-wise.
  if tg_op <> 'DELETE' and current_setting('authsvc.user_snapshots_bulk', true) = '{{namespace}}' then
    return null;
  end if;
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

revoke execute on function {{namespace}}.user_snapshot_of_owner() from public;
