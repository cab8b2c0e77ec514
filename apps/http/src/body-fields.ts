import { AuthError, type Result } from "@authsvc/core";

type Body = Record<string, unknown>;

const invalid = (field: string, expected: string) =>
  new AuthError(400, "validation_failed", `Invalid ${field}: expected ${expected}`);

/** A string field, or undefined when absent or null; anything else is `400 validation_failed`. */
export function optionalString(body: Body, field: string): string | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string") throw invalid(field, "a string");
  return value;
}

/** A boolean field, or undefined when absent or null. */
export function optionalBoolean(body: Body, field: string): boolean | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "boolean") throw invalid(field, "true or false");
  return value;
}

/** A JSON object field (not an array), or undefined when absent or null. */
export function optionalObject(body: Body, field: string): Record<string, unknown> | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "object" || Array.isArray(value)) throw invalid(field, "an object");
  return value as Record<string, unknown>;
}

/** Unwraps a use case's result: expected failures become the error response. */
export function unwrap<T>(result: Result<T>): T {
  if (!result.ok) throw result.error;
  return result.value;
}
