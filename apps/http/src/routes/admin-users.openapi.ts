import { type Operation, PAGE_HEADERS, PAGE_QUERY, REDIRECT_QUERY, ref } from "../http/operation.js";
import { AdminUserBody, DeleteBody, InviteBody } from "./admin-users.js";

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

const userId = [{ name: "user_id", description: "The user's id (a UUID; anything else is 404)." }];
const theUser = { 200: { description: "The user.", body: ref("User") } };

/** `/admin/users…` and `POST /invite` (routes/admin-users.ts). */
export const adminUserOperations: readonly Operation[] = [
  {
    method: "get",
    path: "/admin/users",
    summary: "Lists users, newest first.",
    access: "admin",
    query: [
      ...PAGE_QUERY,
      {
        name: "filter",
        description:
          "Only users whose email or `user_metadata.full_name` contains this text (case-insensitive; " +
          "`%` and `_` are plain characters). `X-Total-Count` then counts at most 1,000 matches.",
      },
    ],
    responses: { 200: { description: "One page of users.", body: ref("UserList"), headers: PAGE_HEADERS } },
  },
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
  {
    method: "post",
    path: "/admin/users/{user_id}",
    summary: "Creates a user with the id given.",
    hooks: true,
    access: "admin",
    pathParameters: userId,
    body: userBody,
    responses: theUser,
    errors: [404, 422],
  },
  {
    method: "get",
    path: "/admin/users/{user_id}",
    summary: "One user.",
    access: "admin",
    pathParameters: userId,
    responses: theUser,
    errors: [404],
  },
  {
    method: "put",
    path: "/admin/users/{user_id}",
    summary: "Changes a user (including `ban_duration`, e.g. `1h30m` or `none`).",
    access: "admin",
    pathParameters: userId,
    body: userBody,
    responses: theUser,
    errors: [404, 422],
  },
  {
    method: "delete",
    path: "/admin/users/{user_id}",
    summary: "Deletes a user (`should_soft_delete` keeps an anonymised row).",
    access: "admin",
    pathParameters: userId,
    body: { schema: DeleteBody },
    responses: { 200: { description: "Deleted.", body: ref("Empty") } },
    errors: [404],
  },
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
];
