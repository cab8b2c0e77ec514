import {
  type AuthDeps,
  adminCreateUser,
  adminDeleteUser,
  adminGetUser,
  adminListUsers,
  adminUpdateUser,
  inviteUser,
  isUuid,
} from "@authsvc/core";
import { type Context, Hono } from "hono";
import * as v from "valibot";
import type { AppEnv } from "../http/app-env.js";
import { defined, flag, metadata, parseBody, shortText, text, unwrap } from "../http/body.js";
import { httpError } from "../http/errors.js";
import { requireAdmin } from "../http/middleware/auth.js";
import { readJsonObject } from "../http/middleware/json-body.js";
import { userJson } from "../http/presenters/user-json.js";

/** The `:id` path segment; a malformed one is a 404, as the reference answers. */
function userIdParam(c: Context<AppEnv>): string {
  const id = c.req.param("user_id") ?? "";
  if (!isUuid(id)) throw httpError(404, "validation_failed", "user_id must be an UUID");
  return id.toLowerCase();
}

/** The admin user body with its types checked; the use case validates the values. */
const AdminUserBody = v.object({
  id: text,
  aud: shortText,
  role: shortText,
  email: text,
  phone: text,
  password: text,
  password_hash: text,
  email_confirm: flag,
  phone_confirm: flag,
  user_metadata: metadata,
  app_metadata: metadata,
  ban_duration: text,
});
const DeleteBody = v.object({ should_soft_delete: flag });
const InviteBody = v.object({ email: text, data: metadata, redirect_to: text });

const adminUserBody = async (c: Context<AppEnv>) => parseBody(AdminUserBody, await readJsonObject(c));

/** A positive whole number from the query, or the default when absent or empty. */
function pageParam(value: string | undefined, fallback: number): number {
  if (value === undefined || value === "") return fallback;
  if (!/^-?\d+$/.test(value)) throw httpError(400, "validation_failed", "Bad Pagination Parameters");
  return Number(value);
}

/** `Link` exactly as the reference writes it (the official client parses it naively). */
function linkHeader(path: string, page: number, perPage: number, total: number): string {
  const last = Math.max(1, Math.ceil(total / perPage));
  const links: string[] = [];
  if (page < last) links.push(`<${path}?page=${page + 1}&per_page=${perPage}>; rel="next"`);
  links.push(`<${path}?page=${last}&per_page=${perPage}>; rel="last"`);
  return links.join(", ");
}

/** `/admin/users…` and `/invite`: user administration for admin-role tokens. */
export const adminUserRoutes = (deps: AuthDeps) => {
  const admin = requireAdmin(deps);
  const actor = (c: Context<AppEnv>) => ({ role: c.get("adminRole") });
  return new Hono<AppEnv>()
    .get("/admin/users", admin, async (c) => {
      const page = pageParam(c.req.query("page"), 1);
      const perPage = pageParam(c.req.query("per_page"), 50);
      const list = unwrap(await adminListUsers(deps, { page, perPage }));
      c.header("x-total-count", String(list.total));
      c.header("link", linkHeader("/admin/users", list.page, list.perPage, list.total));
      return c.json({ users: list.users.map(userJson), aud: deps.settings.jwt.aud });
    })
    .post("/admin/users", admin, async (c) => {
      const input = await adminUserBody(c);
      return c.json(userJson(unwrap(await adminCreateUser(deps, { actor: actor(c), input }))));
    })
    .post("/admin/users/:user_id", admin, async (c) => {
      const id = userIdParam(c);
      const input = { ...(await adminUserBody(c)), id };
      return c.json(userJson(unwrap(await adminCreateUser(deps, { actor: actor(c), input }))));
    })
    .get("/admin/users/:user_id", admin, async (c) => {
      return c.json(userJson(unwrap(await adminGetUser(deps, { userId: userIdParam(c) }))));
    })
    .put("/admin/users/:user_id", admin, async (c) => {
      const userId = userIdParam(c);
      const input = await adminUserBody(c);
      return c.json(userJson(unwrap(await adminUpdateUser(deps, { actor: actor(c), userId, input }))));
    })
    .delete("/admin/users/:user_id", admin, async (c) => {
      const userId = userIdParam(c);
      const body = parseBody(DeleteBody, await readJsonObject(c));
      if (body.should_soft_delete === true) {
        throw httpError(
          400,
          "validation_failed",
          "Soft deletion is not supported; delete without should_soft_delete",
        );
      }
      unwrap(await adminDeleteUser(deps, { actor: actor(c), userId }));
      return c.json({});
    })
    .post("/invite", admin, async (c) => {
      const body = parseBody(InviteBody, await readJsonObject(c));
      const redirectTo = c.req.query("redirect_to") ?? body.redirect_to;
      const input = { actor: actor(c), email: body.email ?? "", ...defined({ data: body.data, redirectTo }) };
      const user = unwrap(await inviteUser(deps, input));
      return c.json(userJson(user));
    });
};
