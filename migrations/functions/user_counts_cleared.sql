-- user_counts_cleared(): statement trigger after a truncate of users (which fires no row or delete
-- trigger): every count removed, as no user is left (migration 0021). Security definer and executable
-- by its owner only, as user_counts_added.
create or replace function {{namespace}}.user_counts_cleared()
returns trigger
language plpgsql
security definer
set search_path to ''
as $$
begin
  delete from {{namespace}}.user_counts;
  return null;
end;
$$;

revoke execute on function {{namespace}}.user_counts_cleared() from public;
