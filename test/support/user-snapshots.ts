import type { Sql } from "@authsvc/adapters";

/**
 * The users of `namespace` whose snapshot (migration 0013) is not as a single writer builds it now:
 * missing, made from an older version of the user's row, or reading otherwise than
 * `user_snapshot_body`; and the snapshots left without their user. Empty when every snapshot is right.
 */
export async function snapshotsOutOfStep(sql: Sql, namespace: string): Promise<string[]> {
  const t = (table: string) => sql(`${namespace}.${table}`);
  const rows = await sql<{ problem: string }[]>`
    select u.id || ': ' || case
      when s.user_id is null then 'no snapshot'
      when s.user_xmin <> u.xmin then 'made from an older row'
      else 'body differs'
    end as problem
    from ${t("users")} u
    left join ${t("user_snapshots")} s on s.user_id = u.id
    where s.user_id is null
      or s.user_xmin <> u.xmin
      or s.body::text <> ${t("user_snapshot_body")}(u.id)::text
    union all
    select s.user_id || ': snapshot without its user'
    from ${t("user_snapshots")} s
    where not exists (select 1 from ${t("users")} u where u.id = s.user_id)
    order by 1
  `;
  return rows.map((row) => row.problem);
}
