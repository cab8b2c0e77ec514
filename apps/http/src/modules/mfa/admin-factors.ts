import { adminDeleteFactor, adminListFactors, adminUpdateFactor } from "@authsvc/core/mfa";
import type { Context } from "hono";
import * as v from "valibot";
import type { AppEnv } from "../../http/app-env.js";
import { parseBody, text, unwrap } from "../../http/body.js";
import { requireAdmin } from "../../http/middleware/auth.js";
import { readJsonObject } from "../../http/middleware/json-body.js";
import { ref } from "../../http/operation.js";
import { factorJson } from "../../http/presenters/factor-json.js";
import { endpoint, type ModuleContext, type ModuleEndpoint } from "../module.js";

export const UpdateFactorBody = v.object({ friendly_name: text, phone: text });

const ids = [
  { name: "user_id", description: "The user's id." },
  { name: "factor_id", description: "The factor's id." },
];
const theFactor = { 200: { description: "The factor.", body: ref("Factor") } };

const target = (c: Context<AppEnv>) => ({
  actor: { role: c.get("adminRole") },
  userId: (c.req.param("user_id") ?? "").toLowerCase(),
  factorId: (c.req.param("factor_id") ?? "").toLowerCase(),
});
const admin = ({ auth }: ModuleContext) => requireAdmin(auth);

/** A user's factors, for admins: `GET /admin/users/{id}/factors`, `PUT` and `DELETE` of one of them. */
export const adminFactorEndpoints: readonly ModuleEndpoint[] = [
  endpoint(
    {
      method: "get",
      path: "/admin/users/{user_id}/factors",
      summary: "A user's factors.",
      access: "admin",
      pathParameters: ids.slice(0, 1),
      responses: { 200: { description: "The factors.", body: { type: "array", items: ref("Factor") } } },
      errors: [404],
    },
    (ctx) => [
      admin(ctx),
      async (c) => {
        const factors = unwrap(await adminListFactors(c.get("deps"), target(c)));
        return c.json(factors.map(factorJson));
      },
    ],
  ),
  endpoint(
    {
      method: "put",
      path: "/admin/users/{user_id}/factors/{factor_id}",
      summary: "Renames a factor, or changes a phone factor's number.",
      access: "admin",
      pathParameters: ids,
      body: { schema: UpdateFactorBody },
      responses: theFactor,
      errors: [404, 422],
    },
    (ctx) => [
      admin(ctx),
      async (c) => {
        const body = parseBody(UpdateFactorBody, await readJsonObject(c));
        const input = { ...target(c), friendlyName: body.friendly_name, phone: body.phone };
        return c.json(factorJson(unwrap(await adminUpdateFactor(c.get("deps"), input))));
      },
    ],
  ),
  endpoint(
    {
      method: "delete",
      path: "/admin/users/{user_id}/factors/{factor_id}",
      summary: "Removes a user's factor.",
      access: "admin",
      pathParameters: ids,
      responses: theFactor,
      errors: [404],
    },
    (ctx) => [
      admin(ctx),
      async (c) => c.json(factorJson(unwrap(await adminDeleteFactor(c.get("deps"), target(c))))),
    ],
  ),
];
