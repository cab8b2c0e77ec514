import {
  afterId,
  countRows,
  countWrites,
  type ImportStep,
  readRows,
  sourceTable,
  targetTable,
} from "./step.js";

const COLUMNS = [
  "id",
  "token_hash",
  "user_id",
  "session_id",
  "parent_id",
  "revoked",
  "created_at",
  "updated_at",
] as const;

/**
 * Refresh tokens of the sessions copied, hashed on the way (the reference stores them in clear;
 * authsvc stores only their hash), under the reference's ids so that the chain of parents (the
 * reference links a token to its parent's text) becomes authsvc's `parent_id`. A client that holds
 * one refreshes with it as before. A token seen again is only ever revoked, never revived.
 */
export const refreshTokens: ImportStep = {
  name: "refresh_tokens",
  count: (ctx) => countRows(ctx, "refresh_tokens", ctx.source`x.session_id is not null and x.token <> ''`),
  async leftOut(ctx) {
    const count = await countRows(
      ctx,
      "refresh_tokens",
      ctx.source`x.session_id is null or coalesce(x.token, '') = ''`,
    );
    return { count, why: "refresh tokens without a session (written before the reference had sessions)" };
  },
  async read(ctx, after, limit) {
    const s = ctx.source;
    const rows = await readRows(
      ctx,
      s`
        select
          r.id,
          r.token,
          r.session_id,
          p.id as parent_id,
          coalesce(r.revoked, false) as revoked,
          coalesce(r.created_at, r.updated_at, 'epoch') as created_at,
          coalesce(r.updated_at, r.created_at, 'epoch') as updated_at
        from ${sourceTable(ctx, "refresh_tokens")} r
        left join ${sourceTable(ctx, "refresh_tokens")} p on p.token = r.parent and p.session_id = r.session_id
        where r.session_id is not null and r.token <> '' and ${afterId(ctx, "r.id", after, "bigint")}
        order by r.id
        limit ${limit}
      `,
    );
    return rows.map(({ token, ...row }) => ({ ...row, token_hash: ctx.hashToken(String(token)) }));
  },
  async write(tx, ctx, rows) {
    const table = targetTable(tx, ctx, "refresh_tokens");
    const written = await tx<{ inserted: boolean }[]>`
      with input as (
        select * from json_populate_recordset(null::${table}, ${JSON.stringify(rows)}::text::json)
      )
      insert into ${table} as t (${tx(COLUMNS)})
      select
        x.id, x.token_hash, s.user_id, x.session_id,
        -- The reference's cleanup may have removed the parent: the chain then starts here.
        case
          when x.parent_id in (select id from input)
            or exists (select 1 from ${table} p where p.id = x.parent_id)
          then x.parent_id
        end,
        x.revoked, x.created_at, x.updated_at
      from input x
      join ${targetTable(tx, ctx, "sessions")} s on s.id = x.session_id
      on conflict (id) do update set revoked = true, updated_at = excluded.updated_at
      where excluded.revoked and not t.revoked and t.token_hash = excluded.token_hash
      returning (xmax = 0) as inserted
    `;
    return countWrites(written);
  },
};

/**
 * Moves the id sequence past the ids copied, so that the tokens authsvc makes next do not collide
 * with them. Never moves it back.
 */
export async function advanceRefreshTokenIds(ctx: Parameters<ImportStep["count"]>[0]): Promise<void> {
  const qualified = `"${ctx.namespace}".refresh_tokens`;
  await ctx.target`
    select setval(pg_get_serial_sequence(${qualified}, 'id'), m.max_id)
    from (select max(id) as max_id from ${ctx.target(`${ctx.namespace}.refresh_tokens`)}) m
    where m.max_id > coalesce(
      (
        select q.last_value
        from pg_sequences q
        where format('%I.%I', q.schemaname, q.sequencename) = pg_get_serial_sequence(${qualified}, 'id')
      ),
      0
    )
  `;
}
