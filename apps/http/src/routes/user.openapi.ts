import { type Operation, REDIRECT_QUERY, ref } from "../http/operation.js";
import { SCOPES, UpdateUserBody } from "./user.js";

/** `GET`/`PUT /user`, `GET /reauthenticate`, `POST /logout` (routes/user.ts). */
export const userOperations: readonly Operation[] = [
  {
    method: "get",
    path: "/user",
    summary: "The signed-in user.",
    access: "user",
    responses: { 200: { description: "The user.", body: ref("User") } },
  },
  {
    method: "put",
    path: "/user",
    summary: "Changes the signed-in user: `data` (merged, `null` deletes a key), password, email, phone.",
    description:
      "A new email or phone is confirmed by a code or link before it applies. With a verified second factor, a change of password, email or phone needs an `aal2` session (401 `insufficient_aal`).",
    hooks: true,
    access: "user",
    limited: true,
    query: [REDIRECT_QUERY],
    body: {
      schema: UpdateUserBody,
      fields: {
        data: { description: "Merged into `user_metadata`; a key set to `null` is deleted." },
        nonce: { description: "The code of `GET /reauthenticate`, when a password change requires it." },
      },
    },
    responses: { 200: { description: "The user, changed.", body: ref("User") } },
    errors: [422],
  },
  {
    method: "get",
    path: "/reauthenticate",
    summary: "Sends a code to the user's email or phone, the `nonce` of a later password change.",
    hooks: true,
    access: "user",
    limited: true,
    responses: { 200: { description: "Sent.", body: ref("MessageId") } },
    errors: [422],
  },
  {
    method: "post",
    path: "/logout",
    summary: "Ends the caller's sessions: all (`global`), this one (`local`) or the others.",
    access: "user",
    query: [
      { name: "scope", description: "Which sessions end (default `global`).", schema: { enum: [...SCOPES] } },
    ],
    responses: { 204: { description: "Signed out." } },
  },
];
