import {
  afterId,
  countRows,
  countWrites,
  type ImportStep,
  readRows,
  sourceIsNewer,
  sourceTable,
  targetTable,
  updateAll,
} from "./step.js";

const COLUMNS = [
  "id",
  "user_id",
  "created_at",
  "updated_at",
  "factor_id",
  "aal",
  "not_after",
  "refreshed_at",
  "user_agent",
  "ip",
  "tag",
  "amr",
] as const;

/**
 * Sessions, with the authentication methods the reference keeps in `mfa_amr_claims` (one row per
 * method) folded into authsvc's `amr` array as the access token's claim shows them. The reference's
 * `refreshed_at` has no time zone and holds UTC. Sessions of its OAuth 2.1 clients are not read:
 * authsvc has no OAuth server, and refreshing them here would hand out ordinary sessions.
 */
export const sessions: ImportStep = {
  name: "sessions",
  owner: { column: "user_id", table: "users", what: "user" },
  count: (ctx) => countRows(ctx, "sessions", ctx.source`x.oauth_client_id is null`),
  async leftOut(ctx) {
    const count = await countRows(ctx, "sessions", ctx.source`x.oauth_client_id is not null`);
    return { count, why: "sessions of OAuth 2.1 clients (authsvc is no OAuth server)" };
  },
  read(ctx, after, limit) {
    const s = ctx.source;
    return readRows(
      ctx,
      s`
        select
          ss.id,
          ss.user_id,
          coalesce(ss.created_at, ss.updated_at, 'epoch') as created_at,
          -- A refresh there sets refreshed_at only; here it sets both, so a later run sees it as newer.
          greatest(coalesce(ss.updated_at, ss.created_at, 'epoch'), ss.refreshed_at at time zone 'UTC') as updated_at,
          ss.factor_id,
          coalesce(ss.aal::text, 'aal1') as aal,
          ss.not_after,
          ss.refreshed_at at time zone 'UTC' as refreshed_at,
          ss.user_agent,
          ss.ip,
          ss.tag,
          coalesce(
            (
              select json_agg(
                json_build_object('method', c.authentication_method, 'timestamp', floor(extract(epoch from c.updated_at))::bigint)
                order by c.updated_at
              )
              from ${sourceTable(ctx, "mfa_amr_claims")} c
              where c.session_id = ss.id
            ),
            '[]'::json
          ) as amr
        from ${sourceTable(ctx, "sessions")} ss
        where ss.oauth_client_id is null and ${afterId(ctx, "ss.id", after, "uuid")}
        order by ss.id
        limit ${limit}
      `,
    );
  },
  async write(tx, ctx, rows) {
    const table = targetTable(tx, ctx, "sessions");
    const written = await tx<{ inserted: boolean }[]>`
      insert into ${table} as t (${tx(COLUMNS)})
      select
        x.id, x.user_id, x.created_at, x.updated_at,
        -- A factor left out (WebAuthn) or refused: the session keeps its level, not the link.
        (select f.id from ${targetTable(tx, ctx, "mfa_factors")} f where f.id = x.factor_id),
        x.aal, x.not_after, x.refreshed_at, x.user_agent, x.ip, x.tag, x.amr
      from json_populate_recordset(null::${table}, ${JSON.stringify(rows)}::text::json) x
      where exists (select 1 from ${targetTable(tx, ctx, "users")} u where u.id = x.user_id)
      on conflict (id) do update set ${updateAll(tx, COLUMNS)}
      where ${sourceIsNewer(tx)}
      returning (xmax = 0) as inserted
    `;
    return countWrites(written);
  },
};
