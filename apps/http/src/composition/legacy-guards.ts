import type { Guarded } from "../http/middleware/endpoint-guards.js";
import type { HttpMethod, Operation } from "../http/operation.js";

const at = (method: HttpMethod, path: string) => ({ method, path }) as Operation;

/**
 * The guards of routes not yet declared as endpoints (http/endpoint.ts), by method and path. An
 * endpoint declares its own `guards`; its entry here goes when it does (a guard listed twice counts
 * twice).
 */
export const LEGACY_GUARDS: readonly Guarded[] = [
  { operation: at("get", "/authorize"), guards: { limit: { name: "authorize", per5Min: "authorize" } } },
];
