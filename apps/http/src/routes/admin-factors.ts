import { type AuthDeps, adminDeleteFactor, adminListFactors, adminUpdateFactor } from "@authsvc/core";
import { type Context, Hono } from "hono";
import * as v from "valibot";
import type { AppEnv } from "../http/app-env.js";
import { parseBody, text, unwrap } from "../http/body.js";
import { requireAdmin } from "../http/middleware/auth.js";
import { readJsonObject } from "../http/middleware/json-body.js";
import { factorJson } from "../http/presenters/factor-json.js";

export const UpdateFactorBody = v.object({ friendly_name: text, phone: text });

/** `GET /admin/users/{id}/factors`, `PUT` and `DELETE /admin/users/{id}/factors/{factor_id}`. */
export const adminFactorRoutes = (deps: AuthDeps) => {
  const admin = requireAdmin(deps);
  const target = (c: Context<AppEnv>) => ({
    actor: { role: c.get("adminRole") },
    userId: (c.req.param("user_id") ?? "").toLowerCase(),
    factorId: (c.req.param("factor_id") ?? "").toLowerCase(),
  });
  return new Hono<AppEnv>()
    .get("/admin/users/:user_id/factors", admin, async (c) => {
      const factors = unwrap(await adminListFactors(c.get("deps"), target(c)));
      return c.json(factors.map(factorJson));
    })
    .put("/admin/users/:user_id/factors/:factor_id", admin, async (c) => {
      const body = parseBody(UpdateFactorBody, await readJsonObject(c));
      const input = { ...target(c), friendlyName: body.friendly_name, phone: body.phone };
      return c.json(factorJson(unwrap(await adminUpdateFactor(c.get("deps"), input))));
    })
    .delete("/admin/users/:user_id/factors/:factor_id", admin, async (c) => {
      return c.json(factorJson(unwrap(await adminDeleteFactor(c.get("deps"), target(c)))));
    });
};
