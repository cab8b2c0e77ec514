-- uid(): the `sub` claim of the request's JWT, as a uuid; null without claims.
--
-- SQL helper for RLS policies written for Supabase. PostgREST sets `request.jwt.claims` (jsonb text);
-- releases before PostgREST 9 set one `request.jwt.claim.<name>` per claim. Same lookup order as
-- Supabase's migrations (legacy setting first, then the claims object), so policies behave identically.
-- nullif(…, '') because a custom setting that was once set reads as '' afterwards, not null.
-- search_path '' forces fully qualified names inside the function.
create or replace function {{namespace}}.uid()
  returns uuid
  language sql
  stable
  set search_path to ''
as $$
  select coalesce(
    nullif(current_setting('request.jwt.claim.sub', true), ''),
    (nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'sub')
  )::uuid
$$;
