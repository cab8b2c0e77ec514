import type { AuthDeps } from "@authsvc/core";
import { type CaptchaVerifier, checkCaptcha } from "@authsvc/core/guards";
import { authenticateAdmin } from "@authsvc/core/sessions";
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../app-env.js";
import { unwrap } from "../body.js";
import { clientAddress } from "../client-address.js";
import { waitAside } from "../flow-control/index.js";
import { bearerToken } from "./auth.js";
import { readJsonObject } from "./json-body.js";

/** Grants that continue a session or flow already begun, which the reference does not guard. */
const UNGUARDED_GRANTS = new Set(["refresh_token", "pkce", "id_token"]);

/**
 * Checks `gotrue_meta_security.captcha_token` with the provider before the route runs. Callers
 * holding a service-role key are trusted and not asked, as in the reference; so are the grants that
 * only continue what a guarded request began. The body is read here and again by the route: Hono
 * keeps it, so it is parsed from the same bytes.
 */
export const requireCaptcha =
  (auth: AuthDeps, captcha: CaptchaVerifier): MiddlewareHandler<AppEnv> =>
  async (c, next) => {
    if (c.req.path === "/token" && UNGUARDED_GRANTS.has(c.req.query("grant_type") ?? "")) return next();
    const token = bearerToken(c.req.header("authorization"));
    if (token !== undefined && (await authenticateAdmin(auth, { bearerToken: token })).ok) return next();
    const security = (await readJsonObject(c)).gotrue_meta_security;
    const captchaToken =
      security !== null && typeof security === "object"
        ? (security as Record<string, unknown>).captcha_token
        : undefined;
    const check = () => checkCaptcha({ captcha }, { token: captchaToken, remoteIp: clientAddress(c) });
    // The provider's answer is not this process's work: the request's slot goes on meanwhile.
    unwrap(await waitAside(c, check));
    await next();
  };
