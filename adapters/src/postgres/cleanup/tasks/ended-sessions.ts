import type { PendingQuery, Row, TransactionSql } from "postgres";
import { type CleanupTask, secondsAgo, sessionShare } from "../task.js";

/**
 * Removes a batch of the sessions `ended` selects, with their refresh tokens (the foreign key's
 * cascade). Their tokens are locked first with `skip locked`, and a session one of whose tokens
 * another transaction holds waits for a later turn, so the cascade never waits; a refresh in
 * progress holds its session's row, which the statement skips.
 */
async function removeSessions(
  sql: TransactionSql,
  namespace: string,
  limit: number,
  ended: PendingQuery<Row[]>,
): Promise<number> {
  const schema = sql(namespace);
  // Nobody signed out: no back-channel logout is recorded for these (migration 0031).
  await sql`select set_config('authsvc.session_end', 'expired', true)`;
  const result = await sql`
    with candidates as (
      select id from ${schema}.sessions
      where ${ended}
      limit ${limit}
      for update skip locked
    ), tokens as (
      select id from ${schema}.refresh_tokens
      where session_id in (select id from candidates)
      for update skip locked
    )
    delete from ${schema}.sessions s
    where s.id in (select id from candidates)
      and not exists (
        select 1 from ${schema}.refresh_tokens t
        where t.session_id = s.id and t.id not in (select id from tokens)
      )`;
  return result.count;
}

/**
 * Sessions past their `not_after` by more than `retentionMs` (`CLEANUP_ENDED_SESSION_RETENTION`, a day
 * by default). Until then a refresh answers `session_expired`; after, `refresh_token_not_found`, as
 * the reference's does once it removed them.
 */
export const sessionsPastNotAfter = (retentionMs: number): CleanupTask => ({
  name: "sessions_past_not_after",
  limit: sessionShare,
  run: ({ sql, namespace, limit }) =>
    removeSessions(sql, namespace, limit, sql`not_after < ${secondsAgo(sql, retentionMs / 1000)}`),
});

/** Sessions past `SESSIONS_TIMEBOX` (from sign-in) by more than `retentionMs`. */
export const sessionsPastTimebox = (timeboxMs: number, retentionMs: number): CleanupTask => ({
  name: "sessions_past_timebox",
  limit: sessionShare,
  run: ({ sql, namespace, limit }) =>
    removeSessions(
      sql,
      namespace,
      limit,
      sql`created_at < ${secondsAgo(sql, (retentionMs + timeboxMs) / 1000)}`,
    ),
});

/**
 * Sessions not refreshed for `SESSIONS_INACTIVITY_TIMEOUT` plus `retentionMs` (never refreshed:
 * counted from sign-in), as the refresh grant counts inactivity.
 */
export const inactiveSessions = (inactivityTimeoutMs: number, retentionMs: number): CleanupTask => ({
  name: "inactive_sessions",
  limit: sessionShare,
  run: ({ sql, namespace, limit }) =>
    removeSessions(
      sql,
      namespace,
      limit,
      sql`coalesce(refreshed_at, created_at) < ${secondsAgo(sql, (retentionMs + inactivityTimeoutMs) / 1000)}`,
    ),
});
