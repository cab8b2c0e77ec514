import { type AuthDeps, adminDeletePasskey, adminListPasskeys } from "@authsvc/core";
import { type Context, Hono } from "hono";
import type { AppEnv } from "../http/app-env.js";
import { unwrap } from "../http/body.js";
import { requireAdmin } from "../http/middleware/auth.js";
import { passkeyJson } from "./passkeys.js";

/** `GET /admin/users/{id}/passkeys` and `DELETE /admin/users/{id}/passkeys/{passkey_id}`. */
export const adminPasskeyRoutes = (deps: AuthDeps) => {
  const admin = requireAdmin(deps);
  const target = (c: Context<AppEnv>) => ({
    actor: { role: c.get("adminRole") },
    userId: (c.req.param("user_id") ?? "").toLowerCase(),
    passkeyId: (c.req.param("passkey_id") ?? "").toLowerCase(),
  });
  return new Hono<AppEnv>()
    .get("/admin/users/:user_id/passkeys", admin, async (c) => {
      const passkeys = unwrap(await adminListPasskeys(c.get("deps"), target(c)));
      return c.json(passkeys.map(passkeyJson));
    })
    .delete("/admin/users/:user_id/passkeys/:passkey_id", admin, async (c) => {
      unwrap(await adminDeletePasskey(c.get("deps"), target(c)));
      return c.body(null, 204);
    });
};
