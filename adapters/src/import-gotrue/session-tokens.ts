import { referenceRefreshTokenV2 } from "./refresh-token-v2.js";
import {
  afterId,
  countRows,
  countWrites,
  ImportFailure,
  type ImportStep,
  readRows,
  sourceTable,
  targetTable,
} from "./step.js";

/**
 * The current refresh token of each session the reference signs with its second algorithm (no row in
 * `refresh_tokens`: the session's HMAC key and counter make it, see refresh-token-v2.ts). A run after
 * authsvc has rotated a session leaves it alone, so it cannot bring an old token back.
 */
export const sessionTokens: ImportStep = {
  name: "session_tokens",
  count: (ctx) =>
    countRows(
      ctx,
      "sessions",
      ctx.source`x.oauth_client_id is null and x.refresh_token_hmac_key is not null`,
    ),
  async read(ctx, after, limit) {
    const s = ctx.source;
    const rows = await readRows(
      ctx,
      s`
        select
          ss.id,
          ss.refresh_token_hmac_key as hmac_key,
          ss.refresh_token_counter::text as counter,
          greatest(coalesce(ss.updated_at, ss.created_at, 'epoch'), ss.refreshed_at at time zone 'UTC') as created_at
        from ${sourceTable(ctx, "sessions")} ss
        where ss.oauth_client_id is null
          and ss.refresh_token_hmac_key is not null
          and ss.refresh_token_counter is not null
          and ${afterId(ctx, "ss.id", after, "uuid")}
        order by ss.id
        limit ${limit}
      `,
    );
    return rows.map((row) => {
      const id = String(row.id);
      const key = ctx.openReferenceSecret(id, String(row.hmac_key));
      if (key === null) {
        throw new ImportFailure(
          `the refresh token key of session ${id} does not open: it is encrypted with a key that was not given (or was altered); set GOTRUE_SECURITY_DB_ENCRYPTION_DECRYPTION_KEYS as the reference had it`,
        );
      }
      const token = referenceRefreshTokenV2(id, BigInt(String(row.counter)), Buffer.from(key, "base64url"));
      return { id, token_hash: ctx.hashToken(token), created_at: row.created_at };
    });
  },
  async write(tx, ctx, rows) {
    const tokens = targetTable(tx, ctx, "refresh_tokens");
    // A session with no token here gets its current one. A session whose only token is one this
    // import wrote (authsvc never rotated it: a rotation leaves a child) and whose counter moved on
    // at the reference since gets the new token, the old one revoked as its parent. A session
    // authsvc has rotated is left alone.
    const written = await tx<{ inserted: boolean }[]>`
      with x as (
        select * from json_to_recordset(${JSON.stringify(rows)}::text::json)
          as x(id uuid, token_hash text, created_at timestamptz)
      ),
      here as (
        select
          x.id, x.token_hash, x.created_at, s.user_id,
          (select count(*) from ${tokens} r where r.session_id = s.id) as tokens,
          (
            select r.id from ${tokens} r
            where r.session_id = s.id and not r.revoked and r.parent_id is null and r.token_hash <> x.token_hash
          ) as superseded
        from x
        join ${targetTable(tx, ctx, "sessions")} s on s.id = x.id
      ),
      retired as (
        update ${tokens} r
        set revoked = true, updated_at = here.created_at
        from here
        where here.tokens = 1 and r.id = here.superseded
        returning r.id, r.session_id
      )
      insert into ${tokens} (token_hash, user_id, session_id, parent_id, revoked, created_at, updated_at)
      select here.token_hash, here.user_id, here.id, retired.id, false, here.created_at, here.created_at
      from here
      left join retired on retired.session_id = here.id
      where here.tokens = 0 or retired.id is not null
      on conflict (token_hash) do nothing
      returning true as inserted
    `;
    return countWrites(written);
  },
};
