import {
  adminRecoveryCodesStatus,
  deleteRecoveryCodes,
  generateRecoveryCodes,
  type RecoveryCodeSet,
  type RecoveryCodesStatus,
  recoveryCodesStatus,
  regenerateRecoveryCodes,
  verifyRecoveryCode,
} from "@authsvc/core/mfa";
import type { Context } from "hono";
import * as v from "valibot";
import type { AppEnv } from "../../http/app-env.js";
import { parseBody, text, unwrap } from "../../http/body.js";
import { requireAdmin, requireUser } from "../../http/middleware/auth.js";
import { readJsonObject } from "../../http/middleware/json-body.js";
import { ref } from "../../http/operation.js";
import { sessionJson } from "../../http/presenters/session-json.js";
import { closed } from "../../openapi/schemas.js";
import { endpoint, type ModuleContext, type ModuleEndpoint } from "../module.js";

export const GenerateRecoveryCodesBody = v.object({ friendly_name: text });
export const VerifyRecoveryCodeBody = v.object({ code: text });

const signedIn = ({ auth }: ModuleContext) => requireUser(auth);
const caller = (c: Context<AppEnv>) => {
  const { user, sessionId } = c.get("auth");
  return { user, sessionId };
};
const setJson = ({ factor, codes }: RecoveryCodeSet) => ({
  id: factor.id,
  type: "recovery_code" as const,
  friendly_name: factor.friendlyName,
  total: codes.length,
  codes,
});
const statusJson = (status: RecoveryCodesStatus) => ({
  id: status.factorId,
  type: "recovery_code" as const,
  total: status.total,
  remaining: status.remaining,
});
const theSet = { 200: { description: "The codes, shown this once.", body: ref("RecoveryCodes") } };

/**
 * The signed-in user's recovery codes (docs/mfa.md#recovery-codes), at the reference's paths. Declared
 * before `/factors/{factor_id}`'s routes, which the paths would otherwise match.
 */
export const recoveryCodeEndpoints: readonly ModuleEndpoint[] = [
  endpoint(
    {
      method: "get",
      path: "/factors/recovery-codes",
      summary: "How many of the user's recovery codes remain (any `aal`).",
      access: "user",
      responses: { 200: { description: "The counts.", body: ref("RecoveryCodesStatus") } },
      errors: [404],
    },
    (ctx) => [
      signedIn(ctx),
      async (c) => {
        const status = unwrap(await recoveryCodesStatus(c.get("deps"), { userId: c.get("auth").user.id }));
        return c.json(statusJson(status));
      },
    ],
  ),
  endpoint(
    {
      method: "post",
      path: "/factors/recovery-codes",
      summary: "Generates the user's recovery codes (next to a verified factor, from an `aal2` session).",
      access: "user",
      body: {
        schema: GenerateRecoveryCodesBody,
        description: "Optional: auth-js sends none without a name.",
        fields: { friendly_name: { description: "Default `Recovery codes`." } },
      },
      responses: theSet,
      errors: [403, 422],
    },
    (ctx) => [
      signedIn(ctx),
      async (c) => {
        const body = parseBody(GenerateRecoveryCodesBody, await readJsonObject(c));
        const input = { ...caller(c), friendlyName: body.friendly_name };
        return c.json(setJson(unwrap(await generateRecoveryCodes(c.get("deps"), input))));
      },
    ],
  ),
  endpoint(
    {
      method: "post",
      path: "/factors/recovery-codes/regenerate",
      summary: "Replaces the user's recovery codes with a new set (from an `aal2` session).",
      access: "user",
      responses: theSet,
      errors: [403, 404, 422],
    },
    (ctx) => [
      signedIn(ctx),
      async (c) => c.json(setJson(unwrap(await regenerateRecoveryCodes(c.get("deps"), caller(c))))),
    ],
  ),
  endpoint(
    {
      method: "post",
      path: "/factors/recovery-codes/verify",
      summary: "Uses one recovery code: the session is raised to `aal2`.",
      hooks: true,
      access: "user",
      limited: true,
      body: {
        schema: VerifyRecoveryCodeBody,
        fields: { code: { description: "Required; case, spaces and `-` do not matter." } },
      },
      responses: { 200: { description: "The session, at `aal2`.", body: ref("Session") } },
      errors: [404, 422, 429],
    },
    (ctx) => [
      signedIn(ctx),
      async (c) => {
        const body = parseBody(VerifyRecoveryCodeBody, await readJsonObject(c));
        const input = { ...caller(c), code: body.code ?? "" };
        return c.json(sessionJson(unwrap(await verifyRecoveryCode(c.get("deps"), input))));
      },
    ],
    { limit: { name: "factor_verify", per5Min: "mfa" } },
  ),
  endpoint(
    {
      method: "delete",
      path: "/factors/recovery-codes",
      summary: "Removes the user's recovery codes (from an `aal2` session).",
      access: "user",
      responses: {
        200: { description: "Removed.", body: closed({ id: { type: "string", format: "uuid" } }) },
      },
      errors: [403, 404],
    },
    (ctx) => [
      signedIn(ctx),
      async (c) => c.json(unwrap(await deleteRecoveryCodes(c.get("deps"), caller(c)))),
    ],
  ),
];

/** The admin's view: `GET /admin/users/{user_id}/factors/recovery-codes`, counts only. */
export const adminRecoveryCodeEndpoints: readonly ModuleEndpoint[] = [
  endpoint(
    {
      method: "get",
      path: "/admin/users/{user_id}/factors/recovery-codes",
      summary: "How many of a user's recovery codes remain.",
      access: "admin",
      pathParameters: [{ name: "user_id", description: "The user's id." }],
      responses: { 200: { description: "The counts.", body: ref("RecoveryCodesStatus") } },
      errors: [404],
    },
    (ctx) => [
      requireAdmin(ctx.auth),
      async (c) => {
        const userId = (c.req.param("user_id") ?? "").toLowerCase();
        return c.json(statusJson(unwrap(await adminRecoveryCodesStatus(c.get("deps"), { userId }))));
      },
    ],
  ),
];
