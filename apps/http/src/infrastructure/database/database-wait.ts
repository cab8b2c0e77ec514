import type { Sql } from "@authsvc/adapters";
import type { Logger } from "pino";
import { variables as dbVariables } from "../../config/sections/db.js";
import { maskUrlPasswords } from "../telemetry/url-password.js";

/** The first retry's delay; each next one doubles, up to {@link MAX_DELAY_MS}. */
const FIRST_DELAY_MS = 250;
const MAX_DELAY_MS = 5_000;

/**
 * Causes that go away by themselves: the server is not listening yet, its name not yet in the DNS
 * (a container starting beside this one), the network slow, or PostgreSQL still starting up or full.
 * Everything else (an unknown database or role, a wrong password, a refused TLS) is a configuration
 * mistake that waiting cannot fix, and is reported at once.
 */
const TRANSIENT_NETWORK = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ENOTFOUND",
  "EAI_AGAIN",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EPIPE",
  "CONNECT_TIMEOUT",
  "CONNECTION_CLOSED",
  "CONNECTION_ENDED",
  "CONNECTION_DESTROYED",
]);
const TRANSIENT_SQLSTATE = new Set([
  "57P03", // cannot_connect_now: starting up, shutting down, in recovery
  "57P01", // admin_shutdown: restarted under us
  "53300", // too_many_connections
]);

export function isTransientConnectError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && (TRANSIENT_NETWORK.has(code) || TRANSIENT_SQLSTATE.has(code));
}

const causeOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** Where the database is, as messages name it: the variable and the URL without its password. */
export interface DatabaseTarget {
  readonly variable: string;
  readonly url: string;
}

/**
 * Waits until `sql` gets a connection, for at most `timeoutMs`: each transient failure is logged as a
 * warning with the attempt's number and the delay before the next one. Throws an error naming the
 * variable, the URL without its password and the cause when the time is up, or at once when the cause
 * is not transient.
 */
export async function waitForDatabase(
  sql: Sql,
  target: DatabaseTarget,
  timeoutMs: number,
  logger: Logger,
): Promise<void> {
  const started = performance.now();
  const database = maskUrlPasswords(target.url);
  for (let attempt = 1; ; attempt++) {
    try {
      await sql`select 1`;
      if (attempt > 1) logger.info({ database, attempts: attempt }, "database accepts connections");
      return;
    } catch (error) {
      const remaining = timeoutMs - (performance.now() - started);
      if (!isTransientConnectError(error) || remaining <= 0) {
        const waited =
          attempt > 1
            ? `; gave up after ${attempt} attempts in ${formatSeconds(timeoutMs)} s (${dbVariables.startupTimeout.name})`
            : "";
        throw new Error(
          `cannot connect to the database of ${target.variable} (${database}): ${causeOf(error)}${waited}`,
          { cause: error },
        );
      }
      // The last wait is cut to what is left, so the last attempt is made at the deadline.
      const delay = Math.round(Math.min(FIRST_DELAY_MS * 2 ** (attempt - 1), MAX_DELAY_MS, remaining));
      logger.warn(
        { database, attempt, retry_in_ms: delay, err: causeOf(error) },
        `cannot connect to the database yet (attempt ${attempt}); trying again in ${delay} ms`,
      );
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
}

function formatSeconds(ms: number): string {
  return String(Math.round(ms / 100) / 10);
}
