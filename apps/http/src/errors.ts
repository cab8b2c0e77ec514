import { isDatabaseUnavailable } from "@authsvc/adapters";
import { AuthError, type ErrorCode } from "@authsvc/core";
import type { Context } from "hono";
import type { ApiVersion } from "./middleware/api-version.js";

/** The message GoTrue gives for every unexpected fault: nothing internal reaches the client. */
export const UNEXPECTED_MESSAGE = "Unexpected failure, please check server logs for more information";

/**
 * Builds an error response in the shape the request asked for (reference §2.1):
 * legacy `{code: <status>, error_code, msg}` by default; `{code: <error_code>, message}` from API
 * version 2024-01-01 on. Extra details (e.g. `weak_password`) are merged into both shapes, and 5xx
 * bodies carry the request id as `error_id` so an operator can find the log line.
 */
export function errorBody(
  error: AuthError,
  apiVersion: ApiVersion,
  requestId: string,
): Record<string, unknown> {
  const errorId = error.status >= 500 ? { error_id: requestId } : {};
  if (apiVersion === "2024-01-01") {
    return { code: error.code, message: error.message, ...error.details, ...errorId };
  }
  return { code: error.status, error_code: error.code, msg: error.message, ...error.details, ...errorId };
}

/** Sends `error` as JSON with `x-sb-error-code`; the API version header is added by its middleware. */
export function errorResponse(c: Context, error: AuthError): Response {
  const body = errorBody(error, c.get("apiVersion") ?? "legacy", c.get("requestId") ?? "");
  c.header("x-sb-error-code", error.code);
  return c.json(body, error.status as 400);
}

/** Converts anything thrown by a handler into the AuthError that is safe to show. */
export function toAuthError(thrown: unknown): AuthError {
  if (thrown instanceof AuthError) return thrown;
  // Input the database cannot store (NUL bytes, broken UTF-16, a value longer than its column, JSON
  // nested too deep) is the client's fault: a 400, not a 500, and never the database's own message.
  const sqlState = (thrown as { name?: unknown; code?: unknown } | null)?.code;
  if ((thrown as { name?: unknown } | null)?.name === "PostgresError" && typeof sqlState === "string") {
    if (UNSTORABLE_INPUT.has(sqlState)) {
      return new AuthError(400, "validation_failed", "The request contains a value that cannot be stored");
    }
  }
  // A restart or a killed backend is not a bug: a retryable 503 while the pool reconnects.
  if (isDatabaseUnavailable(thrown)) return new AuthError(503, "unexpected_failure", DATABASE_UNAVAILABLE);
  return new AuthError(500, "unexpected_failure", UNEXPECTED_MESSAGE);
}

/** What a client sees while the database cannot be reached; retrying after a moment succeeds. */
export const DATABASE_UNAVAILABLE = "Database unavailable, please retry after a moment";

/** SQLSTATEs of unstorable input: 22P05, 22021 (bad text), 22001 (too long), 54001 (too deep). */
const UNSTORABLE_INPUT = new Set(["22P05", "22021", "22001", "54001"]);

/** Shorthand for the errors the HTTP layer raises itself. */
export const httpError = (status: number, code: ErrorCode, message: string) =>
  new AuthError(status, code, message);
