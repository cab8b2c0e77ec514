import { failures } from "@authsvc/core";
import { adminEndSessions } from "@authsvc/core/admin";
import { isUuid } from "@authsvc/core/kernel";
import type { Context } from "hono";
import type { AppEnv } from "../../http/app-env.js";
import { unwrap } from "../../http/body.js";
import { requireAdmin } from "../../http/middleware/auth.js";
import { ref } from "../../http/operation.js";
import { endpoint, type ModuleContext, type ModuleEndpoint } from "../module.js";

const admin = ({ auth }: ModuleContext) => requireAdmin(auth);
const userId = (c: Context<AppEnv>) => {
  const id = c.req.param("user_id") ?? "";
  if (!isUuid(id)) throw failures.userIdNotUuid();
  return id.toLowerCase();
};
const userIdPath = { name: "user_id", description: "The user's id (a UUID; anything else is 404)." };
const ended = { 200: { description: "Ended.", body: ref("Empty") } };

/**
 * `DELETE /admin/users/{id}/sessions[/{session_id}]`: an admin ends a user's sessions (the admin
 * console's "revoke"). Not in the reference's interface (docs/http-api.md, "Extensions").
 */
export const adminSessionEndpoints: readonly ModuleEndpoint[] = [
  endpoint(
    {
      method: "delete",
      path: "/admin/users/{user_id}/sessions",
      summary: "Ends every session of the user (an extension of the reference's interface).",
      access: "admin",
      pathParameters: [userIdPath],
      responses: ended,
      errors: [404],
    },
    (ctx) => [
      admin(ctx),
      async (c) => {
        const actor = { role: c.get("adminRole") };
        unwrap(await adminEndSessions(c.get("deps"), { actor, userId: userId(c) }));
        return c.json({});
      },
    ],
  ),
  endpoint(
    {
      method: "delete",
      path: "/admin/users/{user_id}/sessions/{session_id}",
      summary: "Ends one session of the user (an extension of the reference's interface).",
      access: "admin",
      pathParameters: [userIdPath, { name: "session_id", description: "The session's id." }],
      responses: ended,
      errors: [404],
    },
    (ctx) => [
      admin(ctx),
      async (c) => {
        const actor = { role: c.get("adminRole") };
        const sessionId = (c.req.param("session_id") ?? "").toLowerCase();
        unwrap(await adminEndSessions(c.get("deps"), { actor, userId: userId(c), sessionId }));
        return c.json({});
      },
    ],
  ),
];
