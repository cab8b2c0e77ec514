import { NO_FAILURES, type SignInFailureCount, type SignInFailures } from "@authsvc/core/accounts";
import type { Row } from "postgres";
import type { Queryable } from "./rows.js";

const countFromRow = (row: Row | undefined): SignInFailureCount =>
  row === undefined
    ? NO_FAILURES
    : {
        failedAttempts: Number(row.failed_attempts),
        lastFailedAt: row.last_failed_at ?? null,
        lockedUntil: row.locked_until ?? null,
      };

/** `SignInFailures` over `sign_in_failures` of `namespace`. */
export function postgresSignInFailures(sql: Queryable, options: { namespace: string }): SignInFailures {
  const table = sql`${sql(options.namespace)}.sign_in_failures`;
  return {
    async read(key) {
      const [row] = await sql`
        select
          failed_attempts,
          last_failed_at,
          locked_until
        from ${table}
        where key = ${key}
      `;
      return countFromRow(row);
    },

    async lock(key) {
      // Made when missing (an empty count expiring at once), then locked: parallel attempts on one
      // identifier, from any instance, wait here for one another.
      await sql`
        insert into ${table} (
          key,
          failed_attempts,
          expires_at
        )
        values (
          ${key},
          0,
          now()
        )
        on conflict (key) do nothing
      `;
      const [row] = await sql`
        select
          failed_attempts,
          last_failed_at,
          locked_until
        from ${table}
        where key = ${key}
        for update
      `;
      return countFromRow(row);
    },

    async write(key, count, change) {
      await sql`
        insert into ${table} (
          key,
          failed_attempts,
          last_failed_at,
          locked_until,
          expires_at
        )
        values (
          ${key},
          ${count.failedAttempts},
          ${count.lastFailedAt},
          ${count.lockedUntil},
          ${change.expiresAt}
        )
        on conflict (key) do update
          set
            failed_attempts = excluded.failed_attempts,
            last_failed_at = excluded.last_failed_at,
            locked_until = excluded.locked_until,
            expires_at = excluded.expires_at
      `;
    },

    async clear(keys) {
      if (keys.length === 0) return 0;
      const result = await sql`
        delete from ${table}
        where key in ${sql(keys)}
          and (failed_attempts > 0 or locked_until is not null)
      `;
      return result.count;
    },
  };
}
