-- user_snapshot_body(user): the snapshot of a user as its rows are in the calling statement's
-- snapshot; null for no such user. Identities and factors oldest first, as the user body lists them.
-- No secret is copied: the password hash, the one-time token hashes and the factors' TOTP secrets
-- stay in their tables.
--
-- Part of the user snapshots (`user_snapshots`, created by migration 0013, whose header gives the
-- rules). Executable by its owner only.
create or replace function {{namespace}}.user_snapshot_body(p_user_id uuid)
returns json
language sql
stable
set search_path to ''
as $$
  select to_json(b)
  from (
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
    from {{namespace}}.users u
    where u.id = p_user_id
  ) b
$$;

revoke execute on function {{namespace}}.user_snapshot_body(uuid) from public;
