import { failures } from "@authsvc/core";
import { reauthenticate, updateUser } from "@authsvc/core/account-settings";
import { logout } from "@authsvc/core/sessions";
import * as v from "valibot";
import { defined, filledText, nullableMetadata, parseBody, text, unwrap } from "../../http/body.js";
import { requireUser } from "../../http/middleware/auth.js";
import { readJsonObject } from "../../http/middleware/json-body.js";
import { REDIRECT_QUERY, ref } from "../../http/operation.js";
import { pkceFields, pkceOf } from "../../http/pkce.js";
import { userJson } from "../../http/presenters/user-json.js";
import { endpoint, type ModuleContext, type ModuleEndpoint } from "../module.js";

export const SCOPES = ["global", "local", "others"] as const;
type Scope = (typeof SCOPES)[number];

export const UpdateUserBody = v.object({
  password: text,
  nonce: text,
  email: filledText,
  phone: filledText,
  data: nullableMetadata,
  ...pkceFields,
});

const signedIn = ({ auth }: ModuleContext) => requireUser(auth);

/** `GET /user`, `PUT /user`, `GET /reauthenticate`, `POST /logout`: endpoints of the signed-in user. */
export const userEndpoints: readonly ModuleEndpoint[] = [
  endpoint(
    {
      method: "get",
      path: "/user",
      summary: "The signed-in user.",
      access: "user",
      responses: { 200: { description: "The user.", body: ref("User") } },
    },
    ({ auth }) => [
      requireUser(auth, { refusal: "validation_failed" }),
      async (c) => {
        // Read with the identities while authenticating: no second query.
        return c.json(userJson(c.get("auth").user));
      },
    ],
  ),
  endpoint(
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
    (ctx) => [
      signedIn(ctx),
      async (c) => {
        const { code_challenge, code_challenge_method, ...body } = parseBody(
          UpdateUserBody,
          await readJsonObject(c),
        );
        const { user, sessionId } = c.get("auth");
        const input = {
          userId: user.id,
          sessionId,
          ...body,
          ...pkceOf(defined({ code_challenge, code_challenge_method })),
          ...defined({ redirectTo: c.req.query("redirect_to") }),
        };
        const updated = unwrap(await updateUser(c.get("deps"), input));
        return c.json(userJson(updated));
      },
    ],
    { limit: { name: "user", per5Min: "otp" } },
  ),
  endpoint(
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
    (ctx) => [
      signedIn(ctx),
      async (c) => {
        const sent = unwrap(await reauthenticate(c.get("deps"), { userId: c.get("auth").user.id }));
        return c.json(sent.messageId ? { message_id: sent.messageId } : {});
      },
    ],
  ),
  endpoint(
    {
      method: "post",
      path: "/logout",
      summary: "Ends the caller's sessions: all (`global`), this one (`local`) or the others.",
      access: "user",
      query: [
        {
          name: "scope",
          description: "Which sessions end (default `global`).",
          schema: { enum: [...SCOPES] },
        },
      ],
      responses: { 204: { description: "Signed out." } },
    },
    (ctx) => [
      signedIn(ctx),
      async (c) => {
        const scope = c.req.query("scope") ?? "global";
        if (!SCOPES.includes(scope as Scope)) {
          throw failures.logoutScopeInvalid(scope);
        }
        const { user, sessionId } = c.get("auth");
        unwrap(await logout(c.get("deps"), { userId: user.id, sessionId, scope: scope as Scope }));
        return c.body(null, 204);
      },
    ],
  ),
];
