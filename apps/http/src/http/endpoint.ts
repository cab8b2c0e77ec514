/**
 * One endpoint, declared once: its operation (method, path, input schemas, answers: operation.ts)
 * and its handlers. The same declaration mounts the route (`routesOf`), describes it in the OpenAPI
 * description (openapi/document.ts, and so docs/http-api.md and the answer checks of the e2e suite),
 * lists it for the fuzzer, and puts the request guards it names (`guards`) in front of it (app.ts).
 */
import { Hono, type MiddlewareHandler } from "hono";
import type { H } from "hono/types";
import type { AppEnv } from "./app-env.js";
import type { Operation } from "./operation.js";

/** The setting of `RATE_LIMIT_*` that a per-client limit counts against (middleware/rate-limit.ts). */
export type LimitSetting = "token" | "verify" | "otp" | "authorize" | "oauthAuthorize" | "mfa" | "passkey";

/** Checks made before the handlers, in this order: the per-client limit, the captcha, the pacing. */
export interface EndpointGuards {
  /** A per-client request limit: its count's `name` (in the shared store) and the setting it obeys. */
  readonly limit?: { readonly name: string; readonly per5Min: LimitSetting };
  /** Asks for `gotrue_meta_security.captcha_token` when a captcha provider is configured. */
  readonly captcha?: true;
  /**
   * Answers known and unknown addresses alike in time (`signup`: its own step), and `message`: waits
   * for a turn among the message-sending requests (`API_MESSAGE_CONCURRENCY`).
   */
  readonly pacing?: "signup" | "message";
  /**
   * `"refused"`: answered without the CORS headers every other route has, so that no other origin's
   * script reads the answer (RFC 9700 §2.6: the authorization endpoint and the pages a browser visits).
   */
  readonly crossOrigin?: "refused";
}

/**
 * An endpoint of a module: `handlers` are built once per app from the module's context; none when the
 * configuration switches the endpoint off, which is then not served at all (404, as an unknown path).
 */
export interface Endpoint<Ctx> {
  readonly operation: Operation;
  readonly guards?: EndpointGuards;
  readonly handlers: (ctx: Ctx) => readonly H<AppEnv>[];
}

/** Declares an endpoint: its operation and the handlers that answer it. */
export const endpoint = <Ctx>(
  operation: Operation,
  handlers: (ctx: Ctx) => readonly H<AppEnv>[],
  guards?: EndpointGuards,
): Endpoint<Ctx> => ({ operation, handlers, ...(guards ? { guards } : {}) });

/**
 * The path of `operation` as Hono routes it: `{user_id}` is `:user_id`; a parameter that is the rest
 * of the path (`segments: "many"`) is `*`.
 */
export function routePath(operation: Operation): string {
  const many = new Set(
    (operation.pathParameters ?? []).filter((p) => p.segments === "many").map((p) => p.name),
  );
  return operation.path.replace(/\{([^}]+)\}/g, (_, name: string) => (many.has(name) ? "*" : `:${name}`));
}

/** The method of `operation` as Hono spells it. */
export const routeMethod = (operation: Operation): string => operation.method.toUpperCase();

/**
 * Mounts `endpoints` on one sub-app, in the order given, and answers which are served: an endpoint
 * whose handlers are none (switched off) is left out of both.
 */
export function mountEndpoints<Ctx>(
  endpoints: readonly Endpoint<Ctx>[],
  ctx: Ctx,
): { readonly routes: Hono<AppEnv>; readonly served: readonly Endpoint<Ctx>[] } {
  const routes = new Hono<AppEnv>();
  const served: Endpoint<Ctx>[] = [];
  for (const endpoint of endpoints) {
    const built = endpoint.handlers(ctx);
    if (built.length === 0) continue;
    routes.on(
      routeMethod(endpoint.operation),
      routePath(endpoint.operation),
      ...(built as [MiddlewareHandler<AppEnv>]),
    );
    served.push(endpoint);
  }
  return { routes, served };
}

/** Mounts `endpoints` on one sub-app, in the order given (`mountEndpoints`' routes). */
export const routesOf = <Ctx>(endpoints: readonly Endpoint<Ctx>[], ctx: Ctx): Hono<AppEnv> =>
  mountEndpoints(endpoints, ctx).routes;
