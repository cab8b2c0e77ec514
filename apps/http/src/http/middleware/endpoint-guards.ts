import type { Hono, MiddlewareHandler } from "hono";
import type { AppDeps } from "../app-deps.js";
import type { AppEnv } from "../app-env.js";
import { type EndpointGuards, routeMethod, routePath } from "../endpoint.js";
import type { Operation } from "../operation.js";
import { requireCaptcha } from "./captcha.js";
import { concurrencyLimit } from "./concurrency-limit.js";
import { rateLimiterOf } from "./rate-limit.js";
import { UNIFORM_LATENCY_SIGNUP_STEP_MS, uniformLatency } from "./uniform-latency.js";

/**
 * Takes back the CORS headers the app's middleware gave (app.ts): a browser then keeps the answer from
 * any other origin's script. A preflight (`OPTIONS`) never reaches an endpoint's guards, but without
 * these headers on the answer itself the read is refused anyway.
 */
const sameOriginOnly: MiddlewareHandler<AppEnv> = async (c, next) => {
  c.header("Access-Control-Allow-Origin", undefined);
  c.header("Access-Control-Allow-Credentials", undefined);
  c.header("Access-Control-Expose-Headers", undefined);
  await next();
};

/** An endpoint's operation and the guards it declares. */
export interface Guarded {
  readonly operation: Operation;
  readonly guards?: EndpointGuards;
}

/**
 * Puts each endpoint's guards in front of it (http/endpoint.ts): first the CORS refusal, then every per-client limit, then
 * the captcha, then the pacing, so a request over its limit costs no captcha check. Called before the
 * routes are mounted.
 */
export function applyEndpointGuards(app: Hono<AppEnv>, deps: AppDeps, endpoints: readonly Guarded[]): void {
  const on = (operation: Operation, ...handlers: MiddlewareHandler<AppEnv>[]) =>
    app.on(routeMethod(operation), routePath(operation), ...(handlers as [MiddlewareHandler<AppEnv>]));
  // First, so that every answer of the endpoint, a refusal by the guards after this one too, lacks them.
  for (const { operation, guards } of endpoints)
    if (guards?.crossOrigin === "refused") on(operation, sameOriginOnly);
  const limiter = rateLimiterOf(deps.rateLimit);
  for (const { operation, guards } of endpoints) {
    const limit = guards?.limit && limiter(guards.limit);
    if (limit) on(operation, limit);
  }
  if (deps.captcha !== undefined) {
    const captcha = requireCaptcha(deps.auth, deps.captcha);
    for (const { operation, guards } of endpoints) if (guards?.captcha) on(operation, captcha);
  }
  // A known and an unknown address answer alike, in time too (docs/http-api.md, "Differences").
  const signup = uniformLatency(UNIFORM_LATENCY_SIGNUP_STEP_MS);
  // A burst of them waits its turn here rather than on the pool, where it would queue everyone else.
  const message = [uniformLatency(), concurrencyLimit(deps.messageConcurrency ?? 0)];
  for (const { operation, guards } of endpoints) {
    if (guards?.pacing === "signup") on(operation, signup);
    if (guards?.pacing === "message") on(operation, ...message);
  }
}
