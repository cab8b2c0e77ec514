import { failures } from "../failures.js";
import type { AuthError } from "../kernel/index.js";

/**
 * The failure a hook's answer asks for, or null: an answer `{"error": {"http_code", "message"}}`
 * with a non-empty message fails the request with that status (default 500) and message, whatever
 * else it holds (reference `hookserrors.Check`). Applies to HTTP and Postgres-function hooks alike.
 */
export function hookAnswerFailure(answer: unknown): AuthError | null {
  if (!isObject(answer) || !isObject(answer.error)) return null;
  const { http_code: httpCode, message } = answer.error;
  if (typeof message !== "string" || message === "") return null;
  return failures.hookError(httpCode, message);
}

export const isObject = (value: unknown): value is Readonly<Record<string, unknown>> =>
  typeof value === "object" && value !== null && !Array.isArray(value);
