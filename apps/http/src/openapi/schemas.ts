/**
 * The bodies the server answers with, as JSON Schema (components.schemas of the description): what
 * the presenters (http/presenters/) and the routes write. Closed objects (`additionalProperties:
 * false`): a field the code adds without describing it fails the e2e suite's check of every answer.
 */
import type { JsonSchema } from "../http/operation.js";

const string = { type: "string" } as const;
const time = { type: "string", format: "date-time" } as const;
const integer = { type: "integer" } as const;
const boolean = { type: "boolean" } as const;
const anyObject = { type: "object" } as const;

/** A closed object: every property listed, `required` ones always present. */
export const closed = (
  properties: Readonly<Record<string, JsonSchema>>,
  required: readonly string[] = Object.keys(properties),
  description?: string,
): JsonSchema => ({
  type: "object",
  ...(description ? { description } : {}),
  properties,
  required,
  additionalProperties: false,
});

const factor = closed(
  {
    id: { ...string, format: "uuid" },
    created_at: time,
    updated_at: time,
    status: { enum: ["verified", "unverified"] },
    friendly_name: { ...string, description: "Omitted when empty." },
    factor_type: { enum: ["totp", "phone", "webauthn", "recovery_code"] },
    phone: { ...string, description: '`""` for a factor other than phone.' },
    last_challenged_at: { type: ["string", "null"], format: "date-time" },
  },
  ["id", "created_at", "updated_at", "status", "factor_type", "phone", "last_challenged_at"],
  "A second factor; its secret never leaves the server.",
);

const identity = closed(
  {
    identity_id: { ...string, format: "uuid", description: "The identity's own id." },
    id: { ...string, description: "The subject at the provider (the user id for `email` and `phone`)." },
    user_id: { ...string, format: "uuid" },
    identity_data: anyObject,
    provider: string,
    last_sign_in_at: time,
    created_at: time,
    updated_at: time,
    email: { ...string, description: "The identity's email, lower case, when it has one." },
  },
  ["identity_id", "id", "user_id", "identity_data", "provider"],
  "A way the user signs in: an address or an external provider's account.",
);

const user = closed(
  {
    id: { ...string, format: "uuid" },
    aud: string,
    role: string,
    email: { ...string, description: '`""` when the user has none.' },
    email_confirmed_at: time,
    invited_at: time,
    phone: { ...string, description: '`""` when the user has none.' },
    phone_confirmed_at: time,
    confirmation_sent_at: time,
    confirmed_at: time,
    recovery_sent_at: time,
    new_email: { ...string, description: "An email change waiting for confirmation." },
    email_change_sent_at: time,
    new_phone: { ...string, description: "A phone change waiting for confirmation." },
    phone_change_sent_at: time,
    reauthentication_sent_at: time,
    last_sign_in_at: time,
    app_metadata: anyObject,
    user_metadata: anyObject,
    factors: {
      type: "array",
      items: { $ref: "#/components/schemas/Factor" },
      description: "Omitted when none.",
    },
    identities: { type: "array", items: { $ref: "#/components/schemas/Identity" } },
    created_at: time,
    updated_at: time,
    banned_until: time,
    deleted_at: time,
    is_anonymous: boolean,
  },
  [
    "id",
    "aud",
    "role",
    "email",
    "phone",
    "app_metadata",
    "user_metadata",
    "identities",
    "created_at",
    "updated_at",
    "is_anonymous",
  ],
  "A user as the reference serialises it: unset timestamps are omitted, never null.",
);

const sessionFields = {
  access_token: { ...string, description: "A JWT, valid `expires_in` seconds." },
  token_type: { const: "bearer" },
  expires_in: integer,
  expires_at: { ...integer, description: "Unix time, seconds." },
  refresh_token: string,
  user: { $ref: "#/components/schemas/User" },
};

/** A session, plus fields some answers add to it. */
const session = (extra: Readonly<Record<string, JsonSchema>> = {}, description = "A new session.") =>
  closed({ ...sessionFields, ...extra }, Object.keys(sessionFields), description);

/** What a weak password lacks (`weak_password.reasons`), in a refusal and in a sign-in's answer alike. */
const weakPasswordReasons = { type: "array", items: { enum: ["length", "characters", "pwned"] } };

const errorExtras = {
  error_id: { ...string, description: "On 5xx answers: the request id, to find the log line." },
  weak_password: closed(
    { reasons: weakPasswordReasons },
    ["reasons"],
    "On `weak_password`: what the password lacks.",
  ),
};

export const SCHEMAS: Readonly<Record<string, JsonSchema>> = {
  User: user,
  Identity: identity,
  Factor: factor,
  Session: session(),
  VerifiedSession: session(
    {
      type: { ...string, description: "The `type` that was verified (absent for `sms` and `phone_change`)." },
    },
    "A session from a verified code or token hash.",
  ),
  ExchangedSession: session(
    {
      provider_token: string,
      provider_refresh_token: string,
      weak_password: closed(
        {
          message: string,
          reasons: weakPasswordReasons,
        },
        ["message", "reasons"],
        "On a password sign-in whose correct password is weak or leaked: why (it still signs in).",
      ),
    },
    "A session from a sign-in or an exchanged code; after an external sign-in, with the provider's tokens.",
  ),
  GeneratedLink: closed(
    {
      ...(user.properties as Record<string, JsonSchema>),
      action_link: { ...string, format: "uri" },
      email_otp: string,
      hashed_token: string,
      verification_type: string,
      redirect_to: string,
    },
    [
      ...(user.required as string[]),
      "action_link",
      "email_otp",
      "hashed_token",
      "verification_type",
      "redirect_to",
    ],
    "The user, with the link a mail would carry (not sent).",
  ),
  UserList: closed(
    {
      users: { type: "array", items: { $ref: "#/components/schemas/User" } },
      aud: string,
      pagination: closed(
        { next_cursor: { ...string, description: "The next page's `cursor`." }, has_more: boolean },
        ["has_more"],
        "Cursor mode only.",
      ),
    },
    ["users", "aud"],
  ),
  AuditEntry: closed({
    id: { ...string, format: "uuid" },
    payload: anyObject,
    created_at: time,
    ip_address: string,
  }),
  UserSession: closed(
    {
      id: { ...string, format: "uuid" },
      aal: { enum: ["aal1", "aal2"] },
      amr: { type: "array", items: anyObject },
      created_at: time,
      updated_at: time,
      refreshed_at: { type: ["string", "null"], format: "date-time" },
      not_after: { type: ["string", "null"], format: "date-time" },
      current: { ...boolean, description: "The session of the token that asked." },
      active: boolean,
    },
    undefined,
    "One of the caller's sessions; never a token.",
  ),
  EnrolledFactor: closed(
    {
      id: { ...string, format: "uuid" },
      type: { enum: ["totp", "phone", "webauthn"] },
      friendly_name: string,
      totp: closed({ qr_code: string, secret: string, uri: string }),
      phone: string,
    },
    ["id", "type"],
    "A new, unverified factor; a TOTP factor's secret, once.",
  ),
  Challenge: closed(
    {
      id: { ...string, format: "uuid" },
      type: { enum: ["totp", "phone", "webauthn"] },
      expires_at: integer,
      webauthn: closed(
        {
          type: { enum: ["create", "request"], description: "Registration (`create`) or assertion." },
          credential_options: closed(
            { publicKey: { ...anyObject, description: "For `navigator.credentials.create`/`get`." } },
            ["publicKey"],
          ),
        },
        undefined,
        "A WebAuthn factor's ceremony.",
      ),
    },
    ["id", "type", "expires_at"],
  ),
  RecoveryCodes: closed(
    {
      id: { ...string, format: "uuid" },
      type: { const: "recovery_code" },
      friendly_name: string,
      total: integer,
      codes: { type: "array", items: { ...string, pattern: "^[a-z2-7]{16}$" } },
    },
    undefined,
    "A new set of recovery codes, shown once (only their hashes are kept).",
  ),
  RecoveryCodesStatus: closed(
    {
      id: { ...string, format: "uuid" },
      type: { const: "recovery_code" },
      total: integer,
      remaining: integer,
    },
    undefined,
    "How many recovery codes the set has and how many are unused; never the codes.",
  ),
  Empty: closed({}, [], "An empty object."),
  MessageId: closed(
    { message_id: { ...string, description: "The SMS gateway's id of the message sent." } },
    [],
    "`{}`, or the id of the SMS sent.",
  ),
  VerifyMessage: closed(
    { msg: string, code: { const: 200 } },
    undefined,
    "One step of a two-step email change done; the other address must confirm too.",
  ),
  Settings: closed(
    {
      external: { type: "object", additionalProperties: boolean },
      disable_signup: boolean,
      autoconfirm: boolean,
      mailer_autoconfirm: boolean,
      phone_autoconfirm: boolean,
      sms_provider: string,
      saml_enabled: { ...boolean, description: "Whether SAML single sign-on is on (`SAML_ENABLED`)." },
      saml_private_key_next_configured: {
        ...boolean,
        description: "Whether a next SAML key is published (`SAML_PRIVATE_KEY_NEXT`).",
      },
      passkeys_enabled: { ...boolean, description: "Whether passkeys sign users in (`PASSKEY_ENABLED`)." },
    },
    undefined,
    "The public settings: enabled providers and sign-up switches.",
  ),
  Health: closed({ version: string, name: string, description: string }),
  Readiness: closed(
    {
      status: { enum: ["ok", "unavailable"] },
      checks: { type: "object", additionalProperties: { enum: ["ok", "down"] } },
      warnings: { type: "object", additionalProperties: string },
    },
    ["status", "checks"],
  ),
  Jwks: closed({ keys: { type: "array", items: anyObject } }, undefined, "RFC 7517 §5."),
  OAuthError: closed(
    { error: string, error_description: string },
    undefined,
    "An OAuth-style error (RFC 6749 §5.2), where the reference answers one.",
  ),
  Url: closed({ url: { ...string, format: "uri" } }),
  ErrorLegacy: {
    type: "object",
    description: "An error, as answered without `X-Supabase-Api-Version` (or before 2024-01-01).",
    properties: { code: integer, error_code: string, msg: string, ...errorExtras },
    required: ["code", "error_code", "msg"],
    additionalProperties: false,
  },
  Error20240101: {
    type: "object",
    description: "An error, as answered with `X-Supabase-Api-Version: 2024-01-01` or later.",
    properties: { code: string, message: string, ...errorExtras },
    required: ["code", "message"],
    additionalProperties: false,
  },
};
