/**
 * The error answers of the description, from the error catalogue: for each status, the error codes
 * answered with it (the modules' `statuses`, their `failureStatuses` through each failure's code, the
 * kernel's table and the HTTP layer's own failures), in both body shapes of the reference.
 */

import { type FailureName, failureCodeOf } from "@authsvc/core";
import type { ErrorCode } from "@authsvc/core/kernel";
import { httpFailures } from "../http/http-failures.js";
import type { Access, HttpMethod, JsonSchema } from "../http/operation.js";
import { type StatusOwner, statusTable } from "../http/statuses.js";
import { SCHEMAS } from "./schemas.js";

/** Every status an error is answered with, and the codes of each, sorted. */
export function errorCodesByStatus(modules: readonly StatusOwner[]): ReadonlyMap<number, readonly string[]> {
  const { byCode, byFailure } = statusTable(modules);
  const byStatus = new Map<number, Set<string>>();
  const add = (status: number, code: string) => {
    const codes = byStatus.get(status) ?? new Set<string>();
    codes.add(code);
    byStatus.set(status, codes);
  };
  for (const [code, status] of Object.entries(byCode)) add(status, code);
  for (const [name, status] of Object.entries(byFailure)) {
    if (status !== undefined) add(status, failureCodeOf[name as FailureName]);
  }
  // The HTTP layer's own failures carry their status; their arguments only shape the message.
  for (const make of Object.values(httpFailures)) {
    const error = (make as (arg?: never) => { status: number; code: ErrorCode })();
    add(error.status, error.code);
  }
  return new Map(
    [...byStatus.entries()].sort(([a], [b]) => a - b).map(([status, codes]) => [status, [...codes].sort()]),
  );
}

/**
 * The codes a hook's error may carry at `status`: a hook chooses its status freely, and its code is
 * the reference's empty one (`unexpected_failure` for a 5xx, `unknown` otherwise).
 */
const hookCode = (status: number) => (status >= 500 ? "unexpected_failure" : "unknown");

/** The codes answered with `status`, a hook's included. */
const codesAt = (status: number, codes: readonly string[]) =>
  [...new Set([...codes, hookCode(status)])].sort();

/** `components.schemas.Error<status>`: the error body of that status, in the shape the request asked for. */
export function errorSchema(status: number, codes: readonly string[]): JsonSchema {
  const all = codesAt(status, codes);
  const legacy = SCHEMAS.ErrorLegacy as { properties: Record<string, JsonSchema> };
  const dated = SCHEMAS.Error20240101 as { properties: Record<string, JsonSchema> };
  return {
    oneOf: [
      {
        ...SCHEMAS.ErrorLegacy,
        properties: { ...legacy.properties, code: { const: status }, error_code: { enum: all } },
      },
      { ...SCHEMAS.Error20240101, properties: { ...dated.properties, code: { enum: all } } },
    ],
  };
}

/** A hook's refusal: the status the hook chose (`http_code`, 400–599), the reference's empty code. */
export function hookErrorSchema(): JsonSchema {
  const legacy = SCHEMAS.ErrorLegacy as { properties: Record<string, JsonSchema> };
  const dated = SCHEMAS.Error20240101 as { properties: Record<string, JsonSchema> };
  const codes = { enum: ["unknown", "unexpected_failure"] };
  return {
    description: "A hook's refusal (docs/hooks.md): its `http_code` and message.",
    oneOf: [
      {
        ...SCHEMAS.ErrorLegacy,
        properties: {
          ...legacy.properties,
          code: { type: "integer", minimum: 400, maximum: 599 },
          error_code: codes,
        },
      },
      { ...SCHEMAS.Error20240101, properties: { ...dated.properties, code: codes } },
    ],
  };
}

/** `components.responses.Error<status>`: that error body, and `x-sb-error-code`. */
export function errorResponse(status: number, codes: readonly string[]): JsonSchema {
  const all = codesAt(status, codes);
  return {
    description: `Error codes: ${all.map((code) => `\`${code}\``).join(", ")}.`,
    headers: {
      "x-sb-error-code": { description: "The error code.", required: true, schema: { enum: all } },
    },
    content: { "application/json": { schema: { $ref: `#/components/schemas/Error${status}` } } },
  };
}

/** The error statuses every operation of its kind may answer (`Operation.errors` adds its own). */
export function commonErrors(method: HttpMethod, access: Access, limited: boolean): number[] {
  // Faults (500), an unreachable database (503) and the request deadline (504) may end any request.
  const statuses = [500, 503, 504];
  // A body may be malformed (400), too large (413) or too slow (408): before any route reads it.
  if (method !== "get") statuses.push(400, 408, 413);
  if (access === "user" || access === "admin") statuses.push(400, 401, 403);
  if (limited) statuses.push(429);
  return [...new Set(statuses)].sort((a, b) => a - b);
}
