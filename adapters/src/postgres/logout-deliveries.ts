import type { LogoutDeliveries, LogoutDelivery } from "@authsvc/core/oauth-server";
import type { Row } from "postgres";
import { isUuid, type Queryable } from "./rows.js";

function deliveryFromRow(row: Row): LogoutDelivery {
  return {
    id: row.id,
    clientId: row.client_id,
    sessionId: row.session_id,
    userId: row.user_id,
    uri: row.uri,
    attempts: row.previous_attempts,
    createdAt: row.created_at,
  };
}

/**
 * `LogoutDeliveries` over `oauth_logout_deliveries` (migration 0031), whose rows the sessions trigger
 * writes. Claims lock with `skip locked`, so instances sending at once share the due rows.
 */
export function postgresLogoutDeliveries(sql: Queryable, options: { namespace: string }): LogoutDeliveries {
  const table = sql`${sql(options.namespace)}.oauth_logout_deliveries`;
  return {
    async claim({ now, leaseUntil, limit, perClient }) {
      const rows = await sql`
        with due as (
          select id, client_id, created_at
          from ${table}
          where next_attempt_at <= ${now}
          order by next_attempt_at, id
          limit ${limit * 10}
          for update skip locked
        ), ranked as (
          select id, created_at, row_number() over (partition by client_id order by created_at, id) as n
          from due
        ), picked as (
          select id from ranked where n <= ${perClient} order by created_at, id limit ${limit}
        )
        update ${table} d
        set
          attempts = d.attempts + 1,
          next_attempt_at = ${leaseUntil}
        from picked
        where d.id = picked.id
        returning d.*, d.attempts - 1 as previous_attempts`;
      return rows.map(deliveryFromRow);
    },
    async remove(id) {
      if (!isUuid(id)) return;
      await sql`delete from ${table} where id = ${id}`;
    },
    async retryAt(id, at) {
      if (!isUuid(id)) return;
      await sql`update ${table} set next_attempt_at = ${at} where id = ${id}`;
    },
  };
}
