import {
  afterId,
  countRows,
  countWrites,
  type ImportStep,
  readRows,
  sourceTable,
  targetTable,
} from "./step.js";

/**
 * Refresh tokens of the sessions copied, hashed on the way (the reference stores them in clear;
 * authsvc stores only their hash). A token is known by its hash: authsvc numbers its tokens itself,
 * so a token the reference issues after a first run never meets an id authsvc has given meanwhile.
 * The parent, which the reference names by its text, becomes `parent_id` through the parent's hash.
 * A token seen again is only ever revoked, never revived. A client that holds one refreshes with it
 * as before.
 */
export const refreshTokens: ImportStep = {
  name: "refresh_tokens",
  owner: { column: "session_id", table: "sessions", what: "session" },
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
          nullif(r.parent, '') as parent,
          r.session_id,
          coalesce(r.revoked, false) as revoked,
          coalesce(r.created_at, r.updated_at, 'epoch') as created_at,
          coalesce(r.updated_at, r.created_at, 'epoch') as updated_at
        from ${sourceTable(ctx, "refresh_tokens")} r
        where r.session_id is not null and r.token <> '' and ${afterId(ctx, "r.id", after, "bigint")}
        order by r.id
        limit ${limit}
      `,
    );
    return rows.map(({ token, parent, ...row }) => ({
      ...row,
      token_hash: ctx.hashToken(String(token)),
      parent_hash: typeof parent === "string" ? ctx.hashToken(parent) : null,
    }));
  },
  async write(tx, ctx, rows) {
    const table = targetTable(tx, ctx, "refresh_tokens");
    const input = tx`
      json_to_recordset(${JSON.stringify(rows)}::text::json) as x(
        token_hash text, parent_hash text, session_id uuid, revoked boolean,
        created_at timestamptz, updated_at timestamptz
      )
    `;
    const written = await tx<{ inserted: boolean }[]>`
      insert into ${table} as t (token_hash, user_id, session_id, revoked, created_at, updated_at)
      select x.token_hash, s.user_id, x.session_id, x.revoked, x.created_at, x.updated_at
      from ${input}
      join ${targetTable(tx, ctx, "sessions")} s on s.id = x.session_id
      on conflict (token_hash) do update set revoked = true, updated_at = excluded.updated_at
      where excluded.revoked and not t.revoked and t.session_id = excluded.session_id
      returning (xmax = 0) as inserted
    `;
    // In a second statement, so that a parent written by the first (same batch) is seen. The
    // reference's cleanup may have removed a parent: that chain then starts at its oldest token kept.
    await tx`
      update ${table} as t
      set parent_id = p.id
      from ${input}
      join ${table} p on p.token_hash = x.parent_hash and p.session_id = x.session_id
      where t.token_hash = x.token_hash and t.parent_id is null
    `;
    return countWrites(written);
  },
};
