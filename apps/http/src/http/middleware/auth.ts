import { type AuthDeps, authenticate, authenticateAdmin } from "@authsvc/core";
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../app-env.js";
import { unwrap } from "../body.js";

/** Requires the access token of a signed-in user (`/user`, `/logout`, `/reauthenticate`). */
export const requireUser =
  (deps: AuthDeps): MiddlewareHandler<AppEnv> =>
  async (c, next) => {
    const auth = unwrap(await authenticate(deps, { authorization: c.req.header("authorization") }));
    c.set("auth", auth);
    await next();
  };

/** Requires a token whose `role` is one of `JWT_ADMIN_ROLES` (`/admin/*`, `/invite`). */
export const requireAdmin =
  (deps: AuthDeps): MiddlewareHandler<AppEnv> =>
  async (c, next) => {
    const { role } = unwrap(await authenticateAdmin(deps, { authorization: c.req.header("authorization") }));
    c.set("adminRole", role);
    await next();
  };
