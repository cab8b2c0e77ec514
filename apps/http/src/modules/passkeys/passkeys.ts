import { failures } from "@authsvc/core";
import {
  deletePasskey,
  finishPasskeyRegistration,
  listPasskeys,
  type Passkey,
  renamePasskey,
  signInWithPasskey,
  startPasskeyRegistration,
  startPasskeySignIn,
} from "@authsvc/core/passkeys";
import type { Context } from "hono";
import * as v from "valibot";
import type { AppEnv } from "../../http/app-env.js";
import { parseBody, text, unwrap } from "../../http/body.js";
import { requireUser } from "../../http/middleware/auth.js";
import { readJsonObject } from "../../http/middleware/json-body.js";
import { ref } from "../../http/operation.js";
import { sessionJson } from "../../http/presenters/session-json.js";
import { closed } from "../../openapi/schemas.js";
import { endpoint, type ModuleContext, type ModuleEndpoint } from "../module.js";

export const PasskeyVerifyBody = v.object({ challenge_id: text, credential: v.optional(v.unknown()) });
export const PasskeyRenameBody = v.object({ friendly_name: text });

const uuid = { type: "string", format: "uuid" } as const;
const time = { type: "string", format: "date-time" } as const;

/** A passkey as listed: its name and last use only when there are any. */
export const PASSKEY = closed(
  { id: uuid, friendly_name: { type: "string" }, created_at: time, last_used_at: time },
  ["id", "created_at"],
  "A passkey of the user; its public key never leaves the server.",
);

/** A ceremony's start: the options for `navigator.credentials`, and the id the answer must name. */
const CEREMONY = closed(
  {
    challenge_id: uuid,
    options: {
      type: "object",
      description: "WebAuthn's `PublicKeyCredentialCreationOptions` or `…RequestOptions`, as JSON.",
    },
    expires_at: { type: "integer", description: "Unix time, seconds." },
  },
  undefined,
  "A WebAuthn ceremony, open until `expires_at`.",
);

const passkeyId = [{ name: "passkey_id", description: "The passkey's id." }];

/** The reference's `PasskeyListItem`: the name and last use only when there are any. */
export function passkeyJson(passkey: Passkey) {
  return {
    id: passkey.id,
    ...(passkey.friendlyName !== "" ? { friendly_name: passkey.friendlyName } : {}),
    created_at: passkey.createdAt.toISOString(),
    ...(passkey.lastUsedAt !== null ? { last_used_at: passkey.lastUsedAt.toISOString() } : {}),
  };
}

const ceremonyJson = (started: { challengeId: string; options: unknown; expiresAt: number }) => ({
  challenge_id: started.challengeId,
  options: started.options,
  expires_at: started.expiresAt,
});

/** The challenge id and credential of a verify body; either missing is `400 validation_failed`. */
async function answerOf(c: Context<AppEnv>) {
  const body = parseBody(PasskeyVerifyBody, await readJsonObject(c));
  if (body.challenge_id === undefined || body.challenge_id === "") throw failures.passkeyChallengeIdInvalid();
  if (body.credential === undefined || body.credential === null) throw failures.passkeyCredentialMissing();
  return { challengeId: body.challenge_id, credential: body.credential };
}

const caller = (c: Context<AppEnv>) => {
  const { user, sessionId } = c.get("auth");
  return { user, sessionId };
};
const signedIn = ({ auth }: ModuleContext) => requireUser(auth);

// With passkeys off (`PASSKEY_ENABLED`) every route answers 404 passkey_disabled.
/**
 * `/passkeys/registration/{options,verify}` (signed in), `/passkeys/authentication/{options,verify}`
 * (anyone), and the caller's `GET /passkeys`, `PATCH` and `DELETE /passkeys/{id}` (docs/passkeys.md).
 */
export const passkeyEndpoints: readonly ModuleEndpoint[] = [
  endpoint(
    {
      method: "post",
      path: "/passkeys/registration/options",
      summary: "Starts registering a passkey for the signed-in user.",
      access: "user",
      body: { schema: { type: "object", description: "Ignored; may be empty." } },
      responses: { 200: { description: "The creation options.", body: CEREMONY } },
      errors: [404, 422],
    },
    (ctx) => [
      signedIn(ctx),
      async (c) => {
        await readJsonObject(c);
        return c.json(ceremonyJson(unwrap(await startPasskeyRegistration(c.get("deps"), caller(c)))));
      },
    ],
  ),
  endpoint(
    {
      method: "post",
      path: "/passkeys/registration/verify",
      summary: "Finishes a registration with the browser's attestation: the passkey is saved.",
      access: "user",
      body: { schema: PasskeyVerifyBody },
      responses: {
        200: {
          description: "The new passkey.",
          body: closed({ id: uuid, friendly_name: { type: "string" }, created_at: time }, [
            "id",
            "created_at",
          ]),
        },
      },
      errors: [404, 422],
    },
    (ctx) => [
      signedIn(ctx),
      async (c) => {
        const input = { ...caller(c), ...(await answerOf(c)) };
        const passkey = unwrap(await finishPasskeyRegistration(c.get("deps"), input));
        const { last_used_at: _, ...created } = passkeyJson(passkey);
        return c.json(created);
      },
    ],
  ),
  endpoint(
    {
      method: "post",
      path: "/passkeys/authentication/options",
      summary: "Starts a sign-in with a passkey (discoverable credentials: no user named).",
      access: "public",
      body: { schema: { type: "object", description: "Ignored; may be empty." } },
      responses: { 200: { description: "The request options.", body: CEREMONY } },
      errors: [404],
    },
    () => [
      async (c) => {
        await readJsonObject(c);
        return c.json(ceremonyJson(unwrap(await startPasskeySignIn(c.get("deps")))));
      },
    ],
    { limit: { name: "passkey", per5Min: "passkey" }, captcha: true },
  ),
  endpoint(
    {
      method: "post",
      path: "/passkeys/authentication/verify",
      summary: "Signs in with the browser's assertion of a passkey.",
      access: "public",
      body: { schema: PasskeyVerifyBody },
      responses: { 200: { description: "A new session.", body: ref("Session") } },
      errors: [403, 404, 422],
    },
    () => [
      async (c) => {
        const input = await answerOf(c);
        return c.json(sessionJson(unwrap(await signInWithPasskey(c.get("deps"), input))));
      },
    ],
  ),
  endpoint(
    {
      method: "get",
      path: "/passkeys",
      summary: "Lists the signed-in user's passkeys.",
      access: "user",
      responses: { 200: { description: "The passkeys.", body: { type: "array", items: PASSKEY } } },
      errors: [404],
    },
    (ctx) => [
      signedIn(ctx),
      async (c) => {
        const passkeys = unwrap(await listPasskeys(c.get("deps"), caller(c)));
        return c.json(passkeys.map(passkeyJson));
      },
    ],
  ),
  endpoint(
    {
      method: "patch",
      path: "/passkeys/{passkey_id}",
      summary: "Renames one of the user's passkeys.",
      access: "user",
      pathParameters: passkeyId,
      body: { schema: PasskeyRenameBody },
      responses: { 200: { description: "The renamed passkey.", body: PASSKEY } },
      errors: [404, 422],
    },
    (ctx) => [
      signedIn(ctx),
      async (c) => {
        const body = parseBody(PasskeyRenameBody, await readJsonObject(c));
        const input = {
          ...caller(c),
          passkeyId: (c.req.param("passkey_id") ?? "").toLowerCase(),
          friendlyName: body.friendly_name ?? "",
        };
        return c.json(passkeyJson(unwrap(await renamePasskey(c.get("deps"), input))));
      },
    ],
  ),
  endpoint(
    {
      method: "delete",
      path: "/passkeys/{passkey_id}",
      summary: "Removes one of the user's passkeys.",
      access: "user",
      pathParameters: passkeyId,
      responses: { 204: { description: "Removed." } },
      errors: [404, 422],
    },
    (ctx) => [
      signedIn(ctx),
      async (c) => {
        const input = { ...caller(c), passkeyId: (c.req.param("passkey_id") ?? "").toLowerCase() };
        unwrap(await deletePasskey(c.get("deps"), input));
        return c.body(null, 204);
      },
    ],
  ),
];
