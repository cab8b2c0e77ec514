import type { Repositories } from "@authsvc/core";
import type { OneTimeToken, OneTimeTokenStore, OneTimeTokenType, SendQuota } from "@authsvc/core/messaging";
import type { PendingQuery, Row, Sql } from "postgres";
import { isUuid, type Queryable } from "./rows.js";

/** The messaging slice's own repositories (one-time tokens, send counters) on `sql`. */
export function postgresMessagingRepositories(
  sql: Queryable,
  options: { namespace: string },
): Pick<Repositories, "oneTimeTokens" | "quota"> {
  return {
    oneTimeTokens: postgresOneTimeTokenStore(sql, options),
    quota: postgresSendQuota(sql, options),
  };
}

const TYPES: ReadonlySet<string> = new Set<OneTimeTokenType>([
  "confirmation_token",
  "reauthentication_token",
  "recovery_token",
  "email_change_token_new",
  "email_change_token_current",
  "phone_change_token",
]);

/** A `one_time_tokens` row as a domain token; the enum's labels are the domain's type names. */
export function oneTimeTokenFromRow(row: Row): OneTimeToken {
  const type = String(row.token_type);
  if (!TYPES.has(type)) throw new TypeError(`unknown one_time_token_type ${type}`);
  return {
    id: row.id,
    userId: row.user_id,
    type: type as OneTimeTokenType,
    tokenHash: row.token_hash,
    otpHash: row.otp_hash,
    relatesTo: row.relates_to,
    createdAt: row.created_at,
  };
}

/**
 * `OneTimeTokenStore` over the `one_time_tokens` table of `namespace`. Consuming is one
 * `delete … returning`: of two concurrent consumers of a row, the second waits for the first's row
 * lock, re-checks its condition against the (now deleted) row and gets nothing.
 */
export function postgresOneTimeTokenStore(sql: Queryable, options: { namespace: string }): OneTimeTokenStore {
  const tokens = sql`${sql(options.namespace)}.one_time_tokens`;
  // Compared as text so that the statement needs no cast to the namespace's enum type.
  const ofTypes = (types: readonly OneTimeTokenType[]) => sql`token_type::text = any(${[...types]}::text[])`;

  /**
   * Deletes one row matching `where` (the newest, should several match) and returns it. The match is
   * repeated outside the subselect: a row replaced by `put` meanwhile keeps its key but not its hashes,
   * and the re-check after the row lock must then see that it no longer matches.
   */
  async function take(where: PendingQuery<Row[]>): Promise<OneTimeToken | null> {
    const [row] = await sql`
      delete from ${tokens}
      where id = (
          select id from ${tokens}
          where ${where}
          order by created_at desc, id
          limit 1
        )
        and ${where}
      returning *
    `;
    return row ? oneTimeTokenFromRow(row) : null;
  }

  return {
    async put(token) {
      await sql`
        insert into ${tokens} (id, user_id, token_type, token_hash, otp_hash, relates_to, created_at, updated_at)
        values (
          ${token.id},
          ${token.userId},
          ${token.type},
          ${token.tokenHash},
          ${token.otpHash},
          ${token.relatesTo},
          ${token.createdAt},
          ${token.createdAt}
        )
        on conflict (user_id, token_type) do update
          set
            id = excluded.id,
            token_hash = excluded.token_hash,
            otp_hash = excluded.otp_hash,
            relates_to = excluded.relates_to,
            created_at = excluded.created_at,
            updated_at = excluded.updated_at,
            failed_attempts = 0
      `;
    },

    async recordFailedAttempt(relatesTo, types, maxAttempts) {
      if (types.length === 0) return;
      // Two statements: Postgres cannot update and delete one row within a single statement.
      await sql`
        update ${tokens} set failed_attempts = failed_attempts + 1
        where relates_to = ${relatesTo} and ${ofTypes(types)}`;
      await sql`
        delete from ${tokens}
        where relates_to = ${relatesTo} and ${ofTypes(types)} and failed_attempts >= ${maxAttempts}`;
    },

    consumeByTokenHash: async (tokenHash, types) =>
      tokenHash === "" || types.length === 0
        ? null
        : take(sql`token_hash = ${tokenHash} and ${ofTypes(types)}`),

    // '' is the column default of rows written before otp_hash existed: it names no code.
    consumeByOtp: async (relatesTo, otpHash, types) =>
      otpHash === "" || types.length === 0
        ? null
        : take(sql`relates_to = ${relatesTo} and otp_hash = ${otpHash} and ${ofTypes(types)}`),

    async find(userId, type) {
      if (!isUuid(userId)) return null;
      const [row] =
        await sql`select * from ${tokens} where user_id = ${userId} and token_type::text = ${type}`;
      return row ? oneTimeTokenFromRow(row) : null;
    },

    async deleteForUser(userId, types) {
      if (!isUuid(userId)) return;
      const some = types === undefined ? sql`` : sql`and ${ofTypes(types)}`;
      await sql`delete from ${tokens} where user_id = ${userId} ${some}`;
    },
  };
}

/**
 * The shared send counter: one row per key and window. The upsert only increments while under the
 * limit, so concurrent takers on any number of instances never exceed it (the row lock serialises them).
 */
export function postgresSendQuota(sql: Queryable, options: { namespace: string }): SendQuota {
  const table = sql(options.namespace);
  return {
    async take(key, limit, windowMs, now) {
      if (limit <= 0) return false;
      const windowStart = new Date(Math.floor(now.getTime() / windowMs) * windowMs);
      const upsert = (q: Queryable) => q`
        insert into ${table}.send_quota (key, window_start, count)
        values (${key}, ${windowStart}, 1)
        on conflict (key, window_start) do update
          set count = ${table}.send_quota.count + 1
          where ${table}.send_quota.count < ${limit}
        returning count`;
      if (!isPool(sql)) return (await upsert(sql)).length === 1;
      // Every send of the cluster updates this one row: its lock must last the statement, not a disk
      // flush too. Without the wait for the flush, takers queue for microseconds, not a flush each;
      // a crash may forget the last few counts, which only loosens the hourly cap a little.
      const rows = await sql.begin(async (tx) => {
        await tx`set local synchronous_commit = off`;
        return upsert(tx);
      });
      return (rows as unknown as Row[]).length === 1;
    },
  };
}

/** The pool itself (which can begin a transaction), not a transaction's connection. */
function isPool(sql: Queryable): sql is Queryable & Pick<Sql, "begin"> {
  return typeof (sql as Partial<Sql>).begin === "function";
}
