import { isDatabaseUnavailable } from "@authsvc/adapters";
import { type FailureName, failures } from "@authsvc/core";
import { AuthError, type ErrorCode, HookRejection } from "@authsvc/core/kernel";
import type { Context } from "hono";
import type { ApiVersion } from "./api-version.js";
import type { StatusTable } from "./statuses.js";

/** An error the HTTP layer raises itself (bad JSON, unknown route, request limits), with its status. */
export class HttpError extends AuthError {
  constructor(
    readonly status: number,
    code: ErrorCode,
    message: string,
  ) {
    super(code, message);
  }
}

/**
 * The HTTP status of `error` in `table`: its own (HTTP-layer errors), its failure's override, else its
 * code's; the modules give both, the kernel's table the codes none owns (500 for a code nobody owns,
 * which no failure answers with: statuses.ts refuses that when the table is built).
 */
export function statusIn(table: StatusTable, error: AuthError): number {
  if (error instanceof HttpError) return error.status;
  if (error instanceof HookRejection) return error.httpStatus;
  return table.byFailure[error.failure as FailureName] ?? table.byCode[error.code] ?? 500;
}

/** The HTTP status of `error` in the app answering `c` (its table is set by the app, http/app.ts). */
export const statusOf = (c: Context, error: AuthError): number => statusIn(c.get("statuses"), error);

/** The message GoTrue gives for every unexpected fault: nothing internal reaches the client. */
export const UNEXPECTED_MESSAGE = failures.unexpectedFailure().message;

/**
 * Builds an error response in the shape the request asked for (docs/http-api.md, Errors):
 * legacy `{code: <status>, error_code, msg}` by default; `{code: <error_code>, message}` from API
 * version 2024-01-01 on. Extra details (e.g. `weak_password`) are merged into both shapes, and 5xx
 * bodies carry the request id as `error_id` so an operator can find the log line.
 */
export function errorBody(
  error: AuthError,
  status: number,
  apiVersion: ApiVersion,
  requestId: string,
): Record<string, unknown> {
  const errorId = status >= 500 ? { error_id: requestId } : {};
  if (apiVersion === "2024-01-01") {
    return { code: error.code, message: error.message, ...error.details, ...errorId };
  }
  return { code: status, error_code: error.code, msg: error.message, ...error.details, ...errorId };
}

/** Sends `error` as JSON with `x-sb-error-code`; the API version header is added by its middleware. */
export function errorResponse(c: Context, error: AuthError): Response {
  const status = statusOf(c, error);
  const body = errorBody(error, status, c.get("apiVersion") ?? "legacy", c.get("requestId") ?? "");
  c.header("x-sb-error-code", error.code);
  return c.json(body, status as 400);
}

/**
 * Converts anything thrown by a handler into the AuthError that is safe to show. Adapters report
 * input they cannot store as a failure themselves; anything else thrown is a fault.
 */
export function toAuthError(thrown: unknown): AuthError {
  if (thrown instanceof AuthError) return thrown;
  if (isDatabaseUnavailable(thrown)) return failures.databaseUnavailable();
  return failures.unexpectedFailure();
}

/** Shorthand for an error the HTTP layer raises itself; the named ones are in `http-failures.ts`. */
export const httpError = (status: number, code: ErrorCode, message: string) =>
  new HttpError(status, code, message);
