-- user_counts_rebuild(): every audience's count made again from the users table, in one shard: after
-- users were written with the triggers off (`session_replication_role = replica`), and by migration
-- 0021 for the users of before it. Locks the users table against writers (not readers) until the
-- calling transaction ends, so no write falls between the count and its replacement. Executable by its
-- owner only.
create or replace function {{namespace}}.user_counts_rebuild()
returns void
language plpgsql
security definer
set search_path to ''
as $$
begin
  lock table {{namespace}}.users in share row exclusive mode;
  delete from {{namespace}}.user_counts;
  insert into {{namespace}}.user_counts (aud, shard, users)
  select coalesce(u.aud, ''), 0, count(*)
  from {{namespace}}.users u
  group by 1;
end;
$$;

revoke execute on function {{namespace}}.user_counts_rebuild() from public;
