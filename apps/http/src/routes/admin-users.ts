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
import type { AppEnv } from "../app-env.js";
import {
  optionalBoolean,
  optionalMetadata,
  optionalShortString,
  optionalString,
  unwrap,
} from "../body-fields.js";
import { httpError } from "../errors.js";
import { requireAdmin } from "../middleware/auth.js";
import { readJsonObject } from "../middleware/json-body.js";
import { userJson } from "../presenters/user-json.js";

/** The `:id` path segment; a malformed one is a 404, as the reference answers. */
function userIdParam(c: Context<AppEnv>): string {
  const id = c.req.param("id") ?? "";
  if (!isUuid(id)) throw httpError(404, "validation_failed", "user_id must be an UUID");
  return id.toLowerCase();
}

/** The admin user body with its types checked; the use case validates the values. */
async function adminUserBody(c: Context<AppEnv>) {
  const body = await readJsonObject(c);
  const fields = {
    id: optionalString(body, "id"),
    aud: optionalShortString(body, "aud"),
    role: optionalShortString(body, "role"),
    email: optionalString(body, "email"),
    phone: optionalString(body, "phone"),
    password: optionalString(body, "password"),
    password_hash: optionalString(body, "password_hash"),
    email_confirm: optionalBoolean(body, "email_confirm"),
    phone_confirm: optionalBoolean(body, "phone_confirm"),
    user_metadata: optionalMetadata(body, "user_metadata"),
    app_metadata: optionalMetadata(body, "app_metadata"),
    ban_duration: optionalString(body, "ban_duration"),
  };
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as Partial<
    typeof fields
  >;
}

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
    .post("/admin/users/:id", admin, async (c) => {
      const id = userIdParam(c);
      const input = { ...(await adminUserBody(c)), id };
      return c.json(userJson(unwrap(await adminCreateUser(deps, { actor: actor(c), input }))));
    })
    .get("/admin/users/:id", admin, async (c) => {
      return c.json(userJson(unwrap(await adminGetUser(deps, { userId: userIdParam(c) }))));
    })
    .put("/admin/users/:id", admin, async (c) => {
      const userId = userIdParam(c);
      const input = await adminUserBody(c);
      return c.json(userJson(unwrap(await adminUpdateUser(deps, { actor: actor(c), userId, input }))));
    })
    .delete("/admin/users/:id", admin, async (c) => {
      const userId = userIdParam(c);
      const body = await readJsonObject(c);
      if (optionalBoolean(body, "should_soft_delete") === true) {
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
      const body = await readJsonObject(c);
      const email = optionalString(body, "email") ?? "";
      const data = optionalMetadata(body, "data");
      const redirectTo = c.req.query("redirect_to") ?? optionalString(body, "redirect_to");
      const user = unwrap(
        await inviteUser(deps, {
          actor: actor(c),
          email,
          ...(data !== undefined ? { data } : {}),
          ...(redirectTo !== undefined ? { redirectTo } : {}),
        }),
      );
      return c.json(userJson(user));
    });
};
