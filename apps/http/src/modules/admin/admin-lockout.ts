import { adminGetLockout, adminUnlockUser, type UserLockout } from "@authsvc/core/admin";
import type { Context } from "hono";
import type { AppEnv } from "../../http/app-env.js";
import { unwrap } from "../../http/body.js";
import { requireAdmin } from "../../http/middleware/auth.js";
import { closed } from "../../openapi/schemas.js";
import { endpoint, type ModuleContext, type ModuleEndpoint } from "../module.js";

const lockoutJson = (lockout: UserLockout) => ({
  failed_attempts: lockout.failedAttempts,
  locked_until: lockout.lockedUntil?.toISOString() ?? null,
});
const LockoutBody = closed(
  {
    failed_attempts: {
      type: "integer",
      description: "Wrong passwords counted (the larger of email and phone).",
    },
    locked_until: { type: ["string", "null"], format: "date-time", description: "Null when not locked." },
  },
  undefined,
  "The account lockout's count against the user's email address and phone number.",
);
const userId = [{ name: "user_id", description: "The user's id." }];
const admin = ({ auth }: ModuleContext) => requireAdmin(auth);
const target = (c: Context<AppEnv>) => ({
  actor: { role: c.get("adminRole") },
  userId: (c.req.param("user_id") ?? "").toLowerCase(),
});

/** The account lockout of a user, for admins (docs/http-api.md#account-lockout): read it, end it. */
export const adminLockoutEndpoints: readonly ModuleEndpoint[] = [
  endpoint(
    {
      method: "get",
      path: "/admin/users/{user_id}/lockout",
      summary: "The wrong passwords counted against a user, and the lock if one holds.",
      access: "admin",
      pathParameters: userId,
      responses: { 200: { description: "The count.", body: LockoutBody } },
      errors: [404],
    },
    (ctx) => [
      admin(ctx),
      async (c) => c.json(lockoutJson(unwrap(await adminGetLockout(c.get("deps"), target(c))))),
    ],
  ),
  endpoint(
    {
      method: "delete",
      path: "/admin/users/{user_id}/lockout",
      summary: "Unlocks a user: the wrong passwords counted against their email and phone are forgotten.",
      access: "admin",
      pathParameters: userId,
      responses: { 200: { description: "The count, now empty.", body: LockoutBody } },
      errors: [404],
    },
    (ctx) => [
      admin(ctx),
      async (c) => c.json(lockoutJson(unwrap(await adminUnlockUser(c.get("deps"), target(c))))),
    ],
  ),
];
