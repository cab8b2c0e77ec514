-- 0021_admin_user_list: GET /admin/users at a constant cost whatever the number of users, its `filter`,
-- and the indexes the cleanup's batches select by.
--
-- * `user_counts` holds how many users each audience has, so that `X-Total-Count` is a sum of a few
--   rows instead of a count over the table. It is kept exact by triggers on `users`, in the same
--   transaction as the change: statement-level ones with transition tables for inserts and deletes (a
--   bulk insert adds one count per statement, not a row lock per user), a row trigger for the rare
--   update of `aud`, and one after a truncate. Each audience has up to 16 rows ("shards"), a
--   connection writing the one its backend id picks, so that concurrent sign-ups on different
--   connections do not queue on one counter row until their commits; a reader sums them. A user
--   without an audience and one with the empty audience count under '' together (no list asks for
--   either: the list of '' counts its users instead). Writes made with the triggers off
--   (`session_replication_role = replica`, a superuser's) are not counted: as for the snapshots of
--   migration 0013, whoever does that must run `select {{namespace}}.user_counts_rebuild()` after.
-- * `users_aud_created_at_id_idx` is the list's order inside one audience, with the id that breaks
--   ties: a page is an index-only walk to its rows (a deep page skips index entries, not table rows).
-- * The filter (a substring of the email or of the `full_name` in the user metadata, as the reference)
--   is served by trigram indexes (`pg_trgm`) when that extension can be had: it is created in the
--   schema `extensions` (as Supabase does) when not installed yet, and a role that may not create it
--   (pg_trgm is a trusted extension, so the database's owner may) gets no trigram index: the filter
--   stays correct, by reading the audience's rows.
-- * Cleanup: one-time tokens by creation, request-limit windows by expiry, unverified factors by
--   enrolment, anonymous users by creation (see adapters/src/postgres/cleanup/tasks): each batch an
--   index range instead of a scan of the table.
--
-- needs functions: user_counts_added, user_counts_removed, user_counts_moved
-- needs functions: user_counts_cleared, user_counts_rebuild

create table {{namespace}}.user_counts (
  -- The audience ('' for none).
  aud varchar(255) not null,
  shard smallint not null,
  -- May be negative in one shard (users removed by another connection than added them); the sum is not.
  users bigint not null,
  constraint user_counts_pkey primary key (aud, shard)
);
alter table {{namespace}}.user_counts enable row level security;

create trigger user_counts_added
  after insert on {{namespace}}.users
  referencing new table as added_users
  for each statement execute function {{namespace}}.user_counts_added();
create trigger user_counts_removed
  after delete on {{namespace}}.users
  referencing old table as removed_users
  for each statement execute function {{namespace}}.user_counts_removed();
create trigger user_counts_moved
  after update of aud on {{namespace}}.users
  for each row
  when (coalesce(old.aud, '') is distinct from coalesce(new.aud, ''))
  execute function {{namespace}}.user_counts_moved();
create trigger user_counts_cleared
  after truncate on {{namespace}}.users
  for each statement execute function {{namespace}}.user_counts_cleared();

-- The users of before this migration (creating the triggers above locked out writers until commit).
select {{namespace}}.user_counts_rebuild();

create index users_aud_created_at_id_idx on {{namespace}}.users (aud, created_at desc, id desc);

do $$
declare
  trgm_schema name;
begin
  if not exists (select from pg_catalog.pg_extension where extname = 'pg_trgm') then
    begin
      create schema if not exists extensions;
      create extension if not exists pg_trgm with schema extensions;
    exception when others then
      -- Not allowed, not installed, or created meanwhile by the migration of another namespace (which
      -- the look below then finds, as it committed).
      raise notice 'pg_trgm not created: %', sqlerrm;
    end;
  end if;
  select n.nspname into trgm_schema
  from pg_catalog.pg_extension e
  join pg_catalog.pg_namespace n on n.oid = e.extnamespace
  where e.extname = 'pg_trgm';
  if trgm_schema is null then
    raise notice 'pg_trgm is not available: GET /admin/users?filter= reads the rows of the audience';
    return;
  end if;
  execute format(
    'create index users_email_trgm_idx on {{namespace}}.users using gin (email %I.gin_trgm_ops)',
    trgm_schema
  );
  execute format(
    'create index users_full_name_trgm_idx on {{namespace}}.users '
    'using gin ((raw_user_meta_data ->> ''full_name'') %I.gin_trgm_ops)',
    trgm_schema
  );
end;
$$;

create index one_time_tokens_created_at_idx on {{namespace}}.one_time_tokens (created_at);
create index request_limits_expire_idx on {{namespace}}.request_limits (expire);
create index mfa_factors_unverified_created_at_idx on {{namespace}}.mfa_factors (created_at)
  where status = 'unverified';
create index users_anonymous_created_at_idx on {{namespace}}.users (created_at)
  where is_anonymous;
