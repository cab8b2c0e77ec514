-- user_and_session(user, session): what authenticating a request reads, in one call: the user's body
-- as `userSnapshotOf` (adapters/src/postgres/user-snapshot.ts) selects it — the snapshot while it was
-- made from the row as it is, else the body built from the tables — with the row's two secrets the
-- snapshot leaves out, and the session of that id as json (null for none). No row for no such user.
--
-- Used instead of the plain statement when the connections run unnamed statements (PgBouncer in
-- transaction mode, `AUTHSVC_DB_PREPARED_STATEMENTS=false`): the server then plans a statement at
-- every run, while a PL/pgSQL function keeps the plan of its query for the life of the backend
-- (GET /user through PgBouncer: about 180 µs of database CPU a request with the plain statement).
-- Executable by its owner only.
create or replace function {{namespace}}.user_and_session(p_user_id uuid, p_session_id uuid)
returns table (
  user_body json,
  user_encrypted_password text,
  user_reauthentication_token text,
  session json
)
language plpgsql
stable
set search_path to ''
as $$
begin
  return query
  select
    case
      when us.user_xmin = u.xmin then us.body
      else {{namespace}}.user_snapshot_body(u.id)
    end,
    u.encrypted_password::text,
    u.reauthentication_token::text,
    (select to_json(s) from {{namespace}}.sessions s where s.id = p_session_id)
  from {{namespace}}.users u
  left join {{namespace}}.user_snapshots us on us.user_id = u.id
  where u.id = p_user_id;
end
$$;

revoke execute on function {{namespace}}.user_and_session(uuid, uuid) from public;
