import { type Operation, ref } from "../http/operation.js";
import { closed } from "../openapi/schemas.js";
import { PasskeyRenameBody, PasskeyVerifyBody } from "./passkeys.js";

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

// With passkeys off (`PASSKEY_ENABLED`) every route answers 404 passkey_disabled.
/** The passkey ceremonies and the signed-in user's passkeys (routes/passkeys.ts; docs/passkeys.md). */
export const passkeyOperations: readonly Operation[] = [
  {
    method: "post",
    path: "/passkeys/registration/options",
    summary: "Starts registering a passkey for the signed-in user.",
    access: "user",
    body: { schema: { type: "object", description: "Ignored; may be empty." } },
    responses: { 200: { description: "The creation options.", body: CEREMONY } },
    errors: [404, 422],
  },
  {
    method: "post",
    path: "/passkeys/registration/verify",
    summary: "Finishes a registration with the browser's attestation: the passkey is saved.",
    access: "user",
    body: { schema: PasskeyVerifyBody },
    responses: {
      200: {
        description: "The new passkey.",
        body: closed({ id: uuid, friendly_name: { type: "string" }, created_at: time }, ["id", "created_at"]),
      },
    },
    errors: [404, 422],
  },
  {
    method: "post",
    path: "/passkeys/authentication/options",
    summary: "Starts a sign-in with a passkey (discoverable credentials: no user named).",
    access: "public",
    body: { schema: { type: "object", description: "Ignored; may be empty." } },
    responses: { 200: { description: "The request options.", body: CEREMONY } },
    errors: [404],
  },
  {
    method: "post",
    path: "/passkeys/authentication/verify",
    summary: "Signs in with the browser's assertion of a passkey.",
    access: "public",
    body: { schema: PasskeyVerifyBody },
    responses: { 200: { description: "A new session.", body: ref("Session") } },
    errors: [403, 404, 422],
  },
  {
    method: "get",
    path: "/passkeys",
    summary: "Lists the signed-in user's passkeys.",
    access: "user",
    responses: { 200: { description: "The passkeys.", body: { type: "array", items: PASSKEY } } },
    errors: [404],
  },
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
  {
    method: "delete",
    path: "/passkeys/{passkey_id}",
    summary: "Removes one of the user's passkeys.",
    access: "user",
    pathParameters: passkeyId,
    responses: { 204: { description: "Removed." } },
    errors: [404, 422],
  },
];
