import { adminDeletePasskey, adminListPasskeys } from "@authsvc/core/passkeys";
import type { Context } from "hono";
import type { AppEnv } from "../../http/app-env.js";
import { unwrap } from "../../http/body.js";
import { requireAdmin } from "../../http/middleware/auth.js";
import { endpoint, type ModuleContext, type ModuleEndpoint } from "../module.js";
import { PASSKEY, passkeyJson } from "./passkeys.js";

const userId = { name: "user_id", description: "The user's id." };

const target = (c: Context<AppEnv>) => ({
  actor: { role: c.get("adminRole") },
  userId: (c.req.param("user_id") ?? "").toLowerCase(),
  passkeyId: (c.req.param("passkey_id") ?? "").toLowerCase(),
});
const admin = ({ auth }: ModuleContext) => requireAdmin(auth);

/** The admin's view of a user's passkeys, served whether passkeys are on or not. */
export const adminPasskeyEndpoints: readonly ModuleEndpoint[] = [
  endpoint(
    {
      method: "get",
      path: "/admin/users/{user_id}/passkeys",
      summary: "Lists a user's passkeys.",
      access: "admin",
      pathParameters: [userId],
      responses: { 200: { description: "The passkeys.", body: { type: "array", items: PASSKEY } } },
      errors: [404],
    },
    (ctx) => [
      admin(ctx),
      async (c) => {
        const passkeys = unwrap(await adminListPasskeys(c.get("deps"), target(c)));
        return c.json(passkeys.map(passkeyJson));
      },
    ],
  ),
  endpoint(
    {
      method: "delete",
      path: "/admin/users/{user_id}/passkeys/{passkey_id}",
      summary: "Removes one of a user's passkeys.",
      access: "admin",
      pathParameters: [userId, { name: "passkey_id", description: "The passkey's id." }],
      responses: { 204: { description: "Removed." } },
      errors: [404],
    },
    (ctx) => [
      admin(ctx),
      async (c) => {
        unwrap(await adminDeletePasskey(c.get("deps"), target(c)));
        return c.body(null, 204);
      },
    ],
  ),
];
