import { type AuthDeps, failures } from "@authsvc/core";
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../../http/app-env.js";
import { perClientLimit, type RateLimits } from "../../http/middleware/rate-limit.js";

/** `SAML_ENABLED` off: every SSO route answers 404 `saml_provider_disabled`, before reading anything. */
export const requireSaml =
  (deps: AuthDeps): MiddlewareHandler<AppEnv> =>
  async (_c, next) => {
    if (!deps.settings.sso.enabled) throw failures.samlDisabled();
    await next();
  };

/** A per-IP limit of `perFiveMinutes`, when per-IP limits are on (`RATE_LIMIT_HEADER`); else none. */
export function ssoLimit(
  limits: RateLimits | undefined,
  name: string,
  perFiveMinutes: number,
): MiddlewareHandler<AppEnv> {
  if (!limits?.header) return async (_c, next) => next();
  return perClientLimit(limits, name, perFiveMinutes);
}
