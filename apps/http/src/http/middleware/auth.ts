import { type AuthDeps, authenticate, authenticateAdmin, type RequestAudience } from "@authsvc/core";
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../app-env.js";
import { unwrap } from "../body.js";

const BEARER = /^bearer (\S+)$/i;

/**
 * The token of an `Authorization: Bearer <token>` header (the scheme in any case), or undefined when
 * the header is missing or has another shape — which core answers with 401 `no_authorization`.
 */
export function bearerToken(authorization: string | undefined): string | undefined {
  return authorization === undefined ? undefined : BEARER.exec(authorization)?.[1];
}

/**
 * Requires the access token of a signed-in user (`/user`, `/logout`, `/reauthenticate`), minted for
 * the request's audience: the `X-JWT-AUD` header, else `JWT_AUD`. `refusal` picks how a mismatch is
 * answered (the reference answers `GET /user` with 400 `validation_failed`). A token issued to an
 * OAuth client is refused unless `oauthClients` is "allowed" (`/oauth/userinfo` alone).
 */
export const requireUser =
  (
    deps: AuthDeps,
    refusal?: RequestAudience["refusal"],
    oauthClients: "allowed" | "refused" = "refused",
  ): MiddlewareHandler<AppEnv> =>
  async (c, next) => {
    const audience = {
      expected: c.req.header("x-jwt-aud") || deps.settings.jwt.aud,
      ...(refusal ? { refusal } : {}),
    };
    const bearer = bearerToken(c.req.header("authorization"));
    const auth = unwrap(await authenticate(deps, { bearerToken: bearer, audience, oauthClients }));
    c.set("auth", auth);
    await next();
  };

/** Requires a token whose `role` is one of `JWT_ADMIN_ROLES` (`/admin/*`, `/invite`). */
export const requireAdmin =
  (deps: AuthDeps): MiddlewareHandler<AppEnv> =>
  async (c, next) => {
    const token = bearerToken(c.req.header("authorization"));
    const { role } = unwrap(await authenticateAdmin(deps, { bearerToken: token }));
    c.set("adminRole", role);
    await next();
  };
