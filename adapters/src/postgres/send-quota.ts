import type { SendQuota } from "@authsvc/core";
import type { Queryable } from "./rows.js";

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
      const rows = await sql`
        insert into ${table}.send_quota (key, window_start, count)
        values (${key}, ${windowStart}, 1)
        on conflict (key, window_start) do update
          set count = ${table}.send_quota.count + 1
          where ${table}.send_quota.count < ${limit}
        returning count`;
      return rows.length === 1;
    },
  };
}
