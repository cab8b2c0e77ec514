-- email(): the `email` claim of the request's JWT; null without claims. Deprecated in Supabase in
-- favour of jwt() ->> 'email'; kept for existing policies.
--
-- SQL helper for RLS policies written for Supabase. PostgREST sets `request.jwt.claims` (jsonb text);
-- releases before PostgREST 9 set one `request.jwt.claim.<name>` per claim. Same lookup order as
-- Supabase's migrations (legacy setting first, then the claims object), so policies behave identically.
-- nullif(…, '') because a custom setting that was once set reads as '' afterwards, not null.
-- search_path '' forces fully qualified names inside the function.
create or replace function {{namespace}}.email()
  returns text
  language sql
  stable
  set search_path to ''
as $$
  select coalesce(
    nullif(current_setting('request.jwt.claim.email', true), ''),
    (nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'email')
  )::text
$$;
