-- user_counts_added(): statement trigger after an insert into users: the statement's users, counted per
-- audience, added to this connection's shard of `user_counts` (migration 0021, whose header gives the
-- rules). One upsert per audience and statement, however many rows it inserted. Security definer (a
-- role allowed to write `users` need not be granted the counts) and executable by its owner only.
create or replace function {{namespace}}.user_counts_added()
returns trigger
language plpgsql
security definer
set search_path to ''
as $$
begin
  insert into {{namespace}}.user_counts as c (aud, shard, users)
  select coalesce(a.aud, ''), pg_catalog.pg_backend_pid() % 16, count(*)
  from added_users a
  group by 1
  on conflict (aud, shard) do update set users = c.users + excluded.users;
  return null;
end;
$$;

revoke execute on function {{namespace}}.user_counts_added() from public;
