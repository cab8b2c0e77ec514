-- user_counts_removed(): statement trigger after a delete from users: the statement's users, counted
-- per audience, taken from this connection's shard of `user_counts` (migration 0021, whose header
-- gives the rules). Security definer and executable by its owner only, as user_counts_added.
create or replace function {{namespace}}.user_counts_removed()
returns trigger
language plpgsql
security definer
set search_path to ''
as $$
begin
  insert into {{namespace}}.user_counts as c (aud, shard, users)
  select coalesce(r.aud, ''), pg_catalog.pg_backend_pid() % 16, -count(*)
  from removed_users r
  group by 1
  on conflict (aud, shard) do update set users = c.users + excluded.users;
  return null;
end;
$$;

revoke execute on function {{namespace}}.user_counts_removed() from public;
