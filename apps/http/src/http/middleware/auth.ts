import { type AuthDeps, authenticate, authenticateAdmin } from "@authsvc/core";
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

/** Requires the access token of a signed-in user (`/user`, `/logout`, `/reauthenticate`). */
export const requireUser =
  (deps: AuthDeps): MiddlewareHandler<AppEnv> =>
  async (c, next) => {
    const auth = unwrap(
      await authenticate(deps, { bearerToken: bearerToken(c.req.header("authorization")) }),
    );
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
