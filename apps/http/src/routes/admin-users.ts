import { type AuthDeps, failures } from "@authsvc/core";
import {
  adminCreateUser,
  adminDeleteUser,
  adminGetUser,
  adminListUsers,
  adminUpdateUser,
  inviteUser,
} from "@authsvc/core/admin";
import { isUuid } from "@authsvc/core/kernel";
import { type Context, Hono } from "hono";
import * as v from "valibot";
import type { AppEnv } from "../http/app-env.js";
import { defined, filledText, flag, metadata, parseBody, shortText, text, unwrap } from "../http/body.js";
import { requireAdmin } from "../http/middleware/auth.js";
import { readJsonObject } from "../http/middleware/json-body.js";
import { linkHeader, pageParam } from "../http/pagination.js";
import { userJson } from "../http/presenters/user-json.js";

/** The `:id` path segment; a malformed one is a 404, as the reference answers. */
function userIdParam(c: Context<AppEnv>): string {
  const id = c.req.param("user_id") ?? "";
  if (!isUuid(id)) throw failures.userIdNotUuid();
  return id.toLowerCase();
}

/** `aud` and `role`: short plain text, absent when empty. */
const filledShortText = v.pipe(
  shortText,
  v.transform((value) => value || undefined),
);

/**
 * The admin user body, typed and mapped to core's fields; the use case validates the values. JSON
 * `null` is absent, and so is `""` for every field but `password` (the reference decodes into Go zero
 * values); an empty password stays, for the use case to tell "none" on create from "too short" on update.
 */
export const AdminUserBody = v.pipe(
  v.object({
    id: filledText,
    aud: filledShortText,
    role: filledShortText,
    email: filledText,
    phone: filledText,
    password: text,
    password_hash: filledText,
    email_confirm: flag,
    phone_confirm: flag,
    user_metadata: metadata,
    app_metadata: metadata,
    ban_duration: filledText,
  }),
  v.transform((body) => ({
    id: body.id,
    aud: body.aud,
    role: body.role,
    email: body.email,
    phone: body.phone,
    password: body.password,
    passwordHash: body.password_hash,
    emailConfirm: body.email_confirm,
    phoneConfirm: body.phone_confirm,
    userMetadata: body.user_metadata,
    appMetadata: body.app_metadata,
    banDuration: body.ban_duration,
  })),
);
export const DeleteBody = v.object({ should_soft_delete: flag });
export const InviteBody = v.object({ email: text, data: metadata, redirect_to: text });

const adminUserFields = async (c: Context<AppEnv>) => parseBody(AdminUserBody, await readJsonObject(c));

/** `/admin/users…` and `/invite`: user administration for admin-role tokens. */
export const adminUserRoutes = (deps: AuthDeps) => {
  const admin = requireAdmin(deps);
  const actor = (c: Context<AppEnv>) => ({ role: c.get("adminRole") });
  return new Hono<AppEnv>()
    .get("/admin/users", admin, async (c) => {
      const page = pageParam(c.req.query("page"), 1);
      const perPage = pageParam(c.req.query("per_page"), 50);
      const filter = c.req.query("filter") ?? "";
      const list = unwrap(await adminListUsers(c.get("deps"), { page, perPage, filter }));
      c.header("x-total-count", String(list.total));
      // The next and last pages keep the filter.
      c.header("link", linkHeader("/admin/users", list, filter ? { filter } : {}));
      return c.json({ users: list.users.map(userJson), aud: deps.settings.jwt.aud });
    })
    .post("/admin/users", admin, async (c) => {
      const fields = await adminUserFields(c);
      return c.json(userJson(unwrap(await adminCreateUser(c.get("deps"), { actor: actor(c), fields }))));
    })
    .post("/admin/users/:user_id", admin, async (c) => {
      const id = userIdParam(c);
      const fields = { ...(await adminUserFields(c)), id };
      return c.json(userJson(unwrap(await adminCreateUser(c.get("deps"), { actor: actor(c), fields }))));
    })
    .get("/admin/users/:user_id", admin, async (c) => {
      return c.json(userJson(unwrap(await adminGetUser(c.get("deps"), { userId: userIdParam(c) }))));
    })
    .put("/admin/users/:user_id", admin, async (c) => {
      const userId = userIdParam(c);
      const fields = await adminUserFields(c);
      return c.json(
        userJson(unwrap(await adminUpdateUser(c.get("deps"), { actor: actor(c), userId, fields }))),
      );
    })
    .delete("/admin/users/:user_id", admin, async (c) => {
      const userId = userIdParam(c);
      const body = parseBody(DeleteBody, await readJsonObject(c));
      const softDelete = body.should_soft_delete === true;
      unwrap(await adminDeleteUser(c.get("deps"), { actor: actor(c), userId, softDelete }));
      return c.json({});
    })
    .post("/invite", admin, async (c) => {
      const body = parseBody(InviteBody, await readJsonObject(c));
      const redirectTo = c.req.query("redirect_to") ?? body.redirect_to;
      const input = { actor: actor(c), email: body.email ?? "", ...defined({ data: body.data, redirectTo }) };
      const user = unwrap(await inviteUser(c.get("deps"), input));
      return c.json(userJson(user));
    });
};
