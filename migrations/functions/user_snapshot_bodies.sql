-- user_snapshot_bodies(users): the snapshots of many users in one statement, each as
-- user_snapshot_body builds one (the same columns in the same order: a test compares the two), with
-- the version (`xmin`) of the user row each was made from. Users that do not exist are left out.
--
-- Part of the user snapshots (`user_snapshots`, created by migration 0013, whose header gives the
-- rules); used by user_snapshots_flush and user_snapshots_rebuild. Executable by its owner only.
create or replace function {{namespace}}.user_snapshot_bodies(p_user_ids uuid[])
returns table (user_id uuid, user_xmin xid, body json)
language sql
stable
set search_path to ''
as $$
  select u.id, u.xmin, to_json(b)
  from unnest(p_user_ids) as wanted (id)
  join {{namespace}}.users u on u.id = wanted.id
  cross join lateral (
    select
      u.id,
      u.aud,
      u.role,
      u.email,
      u.phone,
      u.email_confirmed_at,
      u.phone_confirmed_at,
      u.invited_at,
      u.confirmation_sent_at,
      u.recovery_sent_at,
      u.magic_link_sent_at,
      u.email_change,
      u.email_change_sent_at,
      u.phone_change,
      u.phone_change_sent_at,
      u.reauthentication_sent_at,
      u.last_sign_in_at,
      u.raw_app_meta_data,
      u.raw_user_meta_data,
      u.banned_until,
      u.is_anonymous,
      u.deleted_at,
      u.created_at,
      u.updated_at,
      coalesce(
        (
          select json_agg(i order by i.created_at, i.id)
          from {{namespace}}.identities i
          where i.user_id = u.id
        ),
        '[]'::json
      ) as identities,
      coalesce(
        (
          select json_agg(f order by f.created_at, f.id)
          from (
            select
              id,
              user_id,
              friendly_name,
              factor_type,
              status,
              phone,
              created_at,
              updated_at,
              last_challenged_at
            from {{namespace}}.mfa_factors
            where user_id = u.id
          ) f
        ),
        '[]'::json
      ) as factors
  ) b
$$;

revoke execute on function {{namespace}}.user_snapshot_bodies(uuid[]) from public;
