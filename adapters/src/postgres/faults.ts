/**
 * Which thrown errors mean "the database cannot be reached right now" rather than "this query is
 * wrong": a restart, a killed backend, a refused or timed-out connection. Callers answer those with a
 * retryable 503 instead of a 500, and the process keeps running; the pool reconnects by itself.
 */

/** postgres.js's own codes for a connection that went away or never came up. */
const CLIENT_CODES = new Set([
  "CONNECTION_CLOSED",
  "CONNECTION_ENDED",
  "CONNECTION_DESTROYED",
  "CONNECT_TIMEOUT",
]);

/** Node's socket errors on the way to the server. */
const SOCKET_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
]);

/**
 * SQLSTATEs the server sends when it ends or refuses a session: too many connections (53300),
 * shutting down or terminated by an administrator (57P01–57P03), cannot connect now, and the whole
 * connection-exception class 08. Also a write refused as read-only (25006): every statement here
 * runs on a read-write session, so that refusal means the server is (now) a standby, as during a
 * failover, not that the statement is wrong.
 */
const SERVER_STATES = new Set(["25006", "53300", "57P01", "57P02", "57P03", "57P05"]);

interface MaybeDatabaseError {
  name?: unknown;
  code?: unknown;
  severity?: unknown;
  cause?: unknown;
}

/**
 * True when `thrown` (or an error in its `cause` chain) says the database is unavailable. A FATAL
 * from the server always ends the session, so it counts too (e.g. "database is not currently
 * accepting connections" while an operator has closed it).
 */
export function isDatabaseUnavailable(thrown: unknown): boolean {
  for (let error = thrown, depth = 0; error && depth < 5; depth++) {
    const { name, code, severity, cause } = error as MaybeDatabaseError;
    if (typeof code === "string") {
      if (CLIENT_CODES.has(code) || SOCKET_CODES.has(code)) return true;
      if (name === "PostgresError") {
        if (SERVER_STATES.has(code) || code.startsWith("08")) return true;
        if (severity === "FATAL" || severity === "PANIC") return true;
      }
    }
    error = cause;
  }
  return false;
}
