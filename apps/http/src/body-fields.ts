import { AuthError, type Result } from "@authsvc/core";

type Body = Record<string, unknown>;

const invalid = (field: string, expected: string) =>
  new AuthError("validation_failed", `Invalid ${field}: expected ${expected}`);

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

/** Limits on stored metadata: it travels in every access token, so it must stay small and plain. */
export const METADATA_MAX_BYTES = 64 * 1024;
export const METADATA_MAX_DEPTH = 32;

// Postgres text cannot hold NUL, and jsonb refuses unpaired UTF-16 surrogates.
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const UNSTORABLE = { test: (text: string) => text.includes("\u0000") || LONE_SURROGATE.test(text) };

function checkStorable(value: unknown, field: string): void {
  const stack: { value: unknown; depth: number }[] = [{ value, depth: 1 }];
  while (stack.length > 0) {
    const item = stack.pop() as { value: unknown; depth: number };
    if (typeof item.value === "string") {
      if (UNSTORABLE.test(item.value)) throw invalid(field, "text without NUL characters or lone surrogates");
      continue;
    }
    if (item.value === null || typeof item.value !== "object") continue;
    if (item.depth > METADATA_MAX_DEPTH)
      throw invalid(field, `at most ${METADATA_MAX_DEPTH} levels of nesting`);
    for (const [key, inner] of Object.entries(item.value)) {
      if (UNSTORABLE.test(key)) throw invalid(field, "keys without NUL characters or lone surrogates");
      stack.push({ value: inner, depth: item.depth + 1 });
    }
  }
  if (JSON.stringify(value).length > METADATA_MAX_BYTES)
    throw invalid(field, `at most ${METADATA_MAX_BYTES} bytes of JSON`);
}

/**
 * A metadata object (`data`, `user_metadata`, `app_metadata`): an object as `optionalObject`, that
 * Postgres can store and that stays small (64 KiB, 32 levels), or `400 validation_failed`.
 */
export function optionalMetadata(body: Body, field: string): Record<string, unknown> | undefined {
  const value = optionalObject(body, field);
  if (value !== undefined) checkStorable(value, field);
  return value;
}

/** A short plain string (`role`, `aud`): at most 255 characters, no NUL. */
export function optionalShortString(body: Body, field: string): string | undefined {
  const value = optionalString(body, field);
  if (value !== undefined && (value.length > 255 || UNSTORABLE.test(value))) {
    throw invalid(field, "at most 255 characters without NUL characters");
  }
  return value;
}
