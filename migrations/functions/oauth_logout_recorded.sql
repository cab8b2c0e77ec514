-- oauth_logout_recorded(): statement trigger after a delete from sessions: a back-channel logout
-- delivery for each deleted session bound to a client with a `backchannel_logout_uri` (migration
-- 0031, whose header gives the rules), in the deleting transaction. Nothing when the deleting
-- transaction set `authsvc.session_end` to 'expired' (the cleanup of long-ended sessions). Security
-- definer and executable by its owner only.
create or replace function {{namespace}}.oauth_logout_recorded()
returns trigger
language plpgsql
security definer
set search_path to ''
as $$
begin
  if coalesce(pg_catalog.current_setting('authsvc.session_end', true), '') = 'expired' then
    return null;
  end if;
  insert into {{namespace}}.oauth_logout_deliveries (client_id, session_id, user_id, uri)
  select s.oauth_client_id, s.id, s.user_id, c.backchannel_logout_uri
  from ended_sessions s
  join {{namespace}}.oauth_clients c on c.id = s.oauth_client_id
  where c.backchannel_logout_uri is not null
  on conflict (session_id, client_id) do nothing;
  return null;
end;
$$;

revoke execute on function {{namespace}}.oauth_logout_recorded() from public;
