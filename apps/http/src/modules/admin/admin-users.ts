import { failures } from "@authsvc/core";
import {
  adminCreateUser,
  adminDeleteUser,
  adminGetUser,
  adminListUsers,
  adminUpdateUser,
  inviteUser,
} from "@authsvc/core/admin";
import { isUuid } from "@authsvc/core/kernel";
import type { Context } from "hono";
import * as v from "valibot";
import type { AppEnv } from "../../http/app-env.js";
import { defined, filledText, flag, metadata, parseBody, shortText, text, unwrap } from "../../http/body.js";
import { requireAdmin } from "../../http/middleware/auth.js";
import { readJsonObject } from "../../http/middleware/json-body.js";
import { PAGE_HEADERS, PAGE_QUERY, REDIRECT_QUERY, ref } from "../../http/operation.js";
import { linkHeader, pageParam } from "../../http/pagination.js";
import { userJson } from "../../http/presenters/user-json.js";
import { endpoint, type ModuleContext, type ModuleEndpoint } from "../module.js";
import { keysetPage, wantsCursor } from "./user-list-cursor.js";

/** Page mode's headers; cursor mode sends only `Link`, and only when more users follow. */
const LIST_HEADERS = {
  "x-total-count": {
    ...PAGE_HEADERS["x-total-count"],
    description: "Page mode: how many users there are.",
    required: false,
  },
  link: {
    description:
      'Page mode: `<…?page=N&per_page=M>; rel="next"`, `…; rel="last"`; cursor mode: `<…&cursor=…>; rel="next"`.',
    required: false,
  },
};

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

const ADMIN_USER_FIELDS = {
  password_hash: {
    description:
      "A GoTrue hash to import (bcrypt, argon2, within the cost limits under Passwords), instead of `password`; beyond them `400 validation_failed`.",
  },
  email_confirm: { description: "The email counts as confirmed (no mail is sent)." },
  phone_confirm: { description: "The phone counts as confirmed." },
  ban_duration: { description: "A duration such as `1h30m` bans the user that long; `none` lifts a ban." },
};
const userBody = { schema: AdminUserBody, fields: ADMIN_USER_FIELDS };

const userIdPath = [{ name: "user_id", description: "The user's id (a UUID; anything else is 404)." }];
const theUser = { 200: { description: "The user.", body: ref("User") } };

const admin = ({ auth }: ModuleContext) => requireAdmin(auth);
const actor = (c: Context<AppEnv>) => ({ role: c.get("adminRole") });

/** `/admin/users…` and `/invite`: user administration for admin-role tokens. */
export const adminUserEndpoints: readonly ModuleEndpoint[] = [
  endpoint(
    {
      method: "get",
      path: "/admin/users",
      summary: "Lists users, newest first: by page number, or by cursor (keyset pages).",
      access: "admin",
      query: [
        ...PAGE_QUERY,
        {
          name: "limit",
          description: "Cursor mode: users per page (default 50, at most 1000).",
          schema: { type: "string", pattern: "^\\d+$" },
        },
        {
          name: "cursor",
          description:
            "Cursor mode: `pagination.next_cursor` of the previous page (opaque); none for the first page.",
        },
        {
          name: "filter",
          description:
            "Only users whose email or `user_metadata.full_name` contains this text (case-insensitive; " +
            "`%` and `_` are plain characters). `X-Total-Count` then counts at most 1,000 matches.",
        },
      ],
      responses: { 200: { description: "One page of users.", body: ref("UserList"), headers: LIST_HEADERS } },
    },
    (ctx) => [
      admin(ctx),
      async (c) => {
        if (wantsCursor(c, ctx)) return keysetPage(c, ctx);
        const page = pageParam(c.req.query("page"), 1);
        const perPage = pageParam(c.req.query("per_page"), 50);
        const filter = c.req.query("filter") ?? "";
        const list = unwrap(await adminListUsers(c.get("deps"), { page, perPage, filter }));
        c.header("x-total-count", String(list.total));
        // The next and last pages keep the filter.
        c.header("link", linkHeader("/admin/users", list, filter ? { filter } : {}));
        return c.json({ users: list.users.map(userJson), aud: ctx.auth.settings.jwt.aud });
      },
    ],
  ),
  endpoint(
    {
      method: "post",
      path: "/admin/users",
      summary: "Creates a user (confirmed or not, with a password or a `password_hash` from GoTrue).",
      hooks: true,
      access: "admin",
      body: userBody,
      responses: theUser,
      errors: [404, 422],
    },
    (ctx) => [
      admin(ctx),
      async (c) => {
        const fields = await adminUserFields(c);
        return c.json(userJson(unwrap(await adminCreateUser(c.get("deps"), { actor: actor(c), fields }))));
      },
    ],
  ),
  endpoint(
    {
      method: "post",
      path: "/admin/users/{user_id}",
      summary: "Creates a user with the id given.",
      hooks: true,
      access: "admin",
      pathParameters: userIdPath,
      body: userBody,
      responses: theUser,
      errors: [404, 422],
    },
    (ctx) => [
      admin(ctx),
      async (c) => {
        const id = userIdParam(c);
        const fields = { ...(await adminUserFields(c)), id };
        return c.json(userJson(unwrap(await adminCreateUser(c.get("deps"), { actor: actor(c), fields }))));
      },
    ],
  ),
  endpoint(
    {
      method: "get",
      path: "/admin/users/{user_id}",
      summary: "One user.",
      access: "admin",
      pathParameters: userIdPath,
      responses: theUser,
      errors: [404],
    },
    (ctx) => [
      admin(ctx),
      async (c) => {
        return c.json(userJson(unwrap(await adminGetUser(c.get("deps"), { userId: userIdParam(c) }))));
      },
    ],
  ),
  endpoint(
    {
      method: "put",
      path: "/admin/users/{user_id}",
      summary: "Changes a user (including `ban_duration`, e.g. `1h30m` or `none`).",
      access: "admin",
      pathParameters: userIdPath,
      body: userBody,
      responses: theUser,
      errors: [404, 422],
    },
    (ctx) => [
      admin(ctx),
      async (c) => {
        const userId = userIdParam(c);
        const fields = await adminUserFields(c);
        return c.json(
          userJson(unwrap(await adminUpdateUser(c.get("deps"), { actor: actor(c), userId, fields }))),
        );
      },
    ],
  ),
  endpoint(
    {
      method: "delete",
      path: "/admin/users/{user_id}",
      summary: "Deletes a user (`should_soft_delete` keeps an anonymised row).",
      access: "admin",
      pathParameters: userIdPath,
      body: { schema: DeleteBody },
      responses: { 200: { description: "Deleted.", body: ref("Empty") } },
      errors: [404],
    },
    (ctx) => [
      admin(ctx),
      async (c) => {
        const userId = userIdParam(c);
        const body = parseBody(DeleteBody, await readJsonObject(c));
        const softDelete = body.should_soft_delete === true;
        unwrap(await adminDeleteUser(c.get("deps"), { actor: actor(c), userId, softDelete }));
        return c.json({});
      },
    ],
  ),
  endpoint(
    {
      method: "post",
      path: "/invite",
      summary: "Creates an invited user and mails the invitation.",
      hooks: true,
      access: "admin",
      query: [REDIRECT_QUERY],
      body: { schema: InviteBody },
      responses: theUser,
      errors: [422, 429],
    },
    (ctx) => [
      admin(ctx),
      async (c) => {
        const body = parseBody(InviteBody, await readJsonObject(c));
        const redirectTo = c.req.query("redirect_to") ?? body.redirect_to;
        const input = {
          actor: actor(c),
          email: body.email ?? "",
          ...defined({ data: body.data, redirectTo }),
        };
        const user = unwrap(await inviteUser(c.get("deps"), input));
        return c.json(userJson(user));
      },
    ],
  ),
];
