-- user_counts_moved(): row trigger after an update that changed a user's audience: one user less in
-- the old audience, one more in the new, in this connection's shard (migration 0021, whose header
-- gives the rules). The audiences' rows are written in their sort order, so two connections moving
-- users both ways between the same audiences take the row locks in one order. Security definer and
-- executable by its owner only, as user_counts_added.
create or replace function {{namespace}}.user_counts_moved()
returns trigger
language plpgsql
security definer
set search_path to ''
as $$
begin
  insert into {{namespace}}.user_counts as c (aud, shard, users)
  select m.aud, pg_catalog.pg_backend_pid() % 16, m.users
  from (
    values (coalesce(old.aud, ''), -1), (coalesce(new.aud, ''), 1)
  ) as m (aud, users)
  order by m.aud
  on conflict (aud, shard) do update set users = c.users + excluded.users;
  return null;
end;
$$;

revoke execute on function {{namespace}}.user_counts_moved() from public;
