/**
 * The bodies of the OAuth server's answers, as JSON Schema, shared by the declarations of its
 * endpoints.
 */
import { type JsonSchema, type OperationResponse, ref } from "../../http/operation.js";
import { closed } from "../../openapi/schemas.js";

const string = { type: "string" } as const;
const strings = { type: "array", items: string } as const;
const time = { type: "string", format: "date-time" } as const;
const integer = { type: "integer" } as const;

/** A client as registration and the admin API answer it (oauth-http.ts `clientJson`). */
const clientFields = {
  client_id: {
    ...string,
    description:
      "A UUID; for a client metadata document's client, its document's URL (also the `{id}` of the admin paths, URL-encoded).",
  },
  client_secret: { ...string, description: "Only when just issued (creation, a new secret)." },
  client_type: { enum: ["public", "confidential"] },
  redirect_uris: strings,
  token_endpoint_auth_method: {
    enum: ["none", "client_secret_basic", "client_secret_post", "private_key_jwt", "client_secret_jwt"],
  },
  grant_types: {
    type: "array",
    items: {
      enum: [
        "authorization_code",
        "refresh_token",
        "client_credentials",
        "urn:ietf:params:oauth:grant-type:device_code",
        "urn:ietf:params:oauth:grant-type:token-exchange",
      ],
    },
  },
  response_types: { type: "array", items: { const: "code" } },
  client_name: string,
  client_uri: string,
  logo_uri: string,
  jwks: {
    type: "object",
    description: "`private_key_jwt`: the client's public keys (RFC 7591), when registered inline.",
  },
  jwks_uri: { ...string, description: "`private_key_jwt`: where the client publishes its public keys." },
  require_pushed_authorization_requests: {
    type: "boolean",
    description: "RFC 9126 §6: every authorization request of the client must be pushed first.",
  },
  post_logout_redirect_uris: strings,
  backchannel_logout_uri: string,
  backchannel_logout_session_required: { type: "boolean" },
  dpop_bound_access_tokens: {
    type: "boolean",
    description: "RFC 9449 §5.2: every token request of the client must carry a DPoP proof.",
  },
  token_exchange_audiences: {
    ...strings,
    description: "Token exchange (RFC 8693): the audiences an admin allows the client to exchange for.",
  },
  token_exchange_impersonation: {
    type: "boolean",
    description: "Token exchange: whether an admin allows the client impersonation tokens (no `act`).",
  },
  scope: { ...string, description: "The scopes the client may ask for, space-separated (RFC 7591)." },
  registration_type: { enum: ["dynamic", "manual"] },
  client_id_metadata_document: {
    const: true,
    description:
      "Only for a client whose `client_id` is a URL: its metadata is that document's, read-only here.",
  },
  metadata_expires_at: { ...time, description: "When its document is fetched again, at its next use." },
  created_at: time,
  updated_at: time,
};
const clientRequired = [
  "client_id",
  "client_type",
  "redirect_uris",
  "token_endpoint_auth_method",
  "grant_types",
  "response_types",
  "registration_type",
  "created_at",
  "updated_at",
];
export const OAUTH_CLIENT = closed(clientFields, clientRequired, "An OAuth client of this server.");
export const REGISTERED_CLIENT = closed(
  {
    ...clientFields,
    client_id_issued_at: { ...integer, description: "Unix time, seconds." },
    client_secret_expires_at: { const: 0, description: "With a secret: it never expires (RFC 7591)." },
  },
  [...clientRequired, "client_id_issued_at"],
  "A client just registered (RFC 7591 §3.2.1).",
);

/** The client as the consent screen shows it. */
export const CLIENT_SUMMARY = closed(
  {
    id: { ...string, description: "The `client_id`: a UUID, or a client metadata document's URL." },
    name: { ...string, description: "For a client metadata document's client, what its document claims." },
    uri: string,
    logo_uri: string,
    client_id_metadata_document: {
      const: true,
      description:
        "An authsvc addition, only for a client whose id is a URL: its name is self-asserted; show `host` beside it.",
    },
    host: {
      ...string,
      description: "The host of the client's metadata document URL, which controls its redirect URIs.",
    },
  },
  ["id", "name", "uri", "logo_uri"],
);

/** Where the consent page sends the browser next. */
export const REDIRECT_URL = closed({ redirect_url: { ...string, format: "uri" } });

export const TOKENS = closed(
  {
    access_token: {
      ...string,
      description:
        "A JWT for the user, naming the client (`client_id`); for `client_credentials`, the client's own (`sub` = `client_id`).",
    },
    token_type: {
      enum: ["bearer", "DPoP"],
      description:
        "`DPoP` when the request carried a DPoP proof: the tokens are bound to its key (RFC 9449 §5).",
    },
    expires_in: integer,
    refresh_token: {
      ...string,
      description:
        "Of a code exchange or a refresh; never of a token exchange nor of `client_credentials`, nor without `offline_access` when `OAUTH_SERVER_REFRESH_TOKEN_NEEDS_OFFLINE_ACCESS` is on.",
    },
    scope: string,
    id_token: { ...string, description: "With the `openid` scope: the OIDC ID token." },
    issued_token_type: {
      const: "urn:ietf:params:oauth:token-type:access_token",
      description: "A token exchange's (RFC 8693 §2.2.1).",
    },
  },
  ["access_token", "token_type", "expires_in", "scope"],
  "The tokens of a code exchange, a refresh (OAuth 2.1 §3.2.3), a token exchange (RFC 8693 §2.2.1) or a client's own grant.",
);

export const INTROSPECTION = closed(
  {
    active: { type: "boolean" },
    client_id: string,
    scope: string,
    sub: {
      ...string,
      format: "uuid",
      description: "The user; for a `client_credentials` token, the client.",
    },
    token_type: { enum: ["access_token", "refresh_token"] },
    exp: integer,
    iat: integer,
    iss: string,
    aud: { type: ["string", "array"], items: string },
    cnf: closed(
      { jkt: string },
      ["jkt"],
      "A DPoP-bound access token (RFC 9449 §6.2): the thumbprint of its key.",
    ),
    act: { type: "object", description: "An exchanged token's actor (RFC 8693 §4.1)." },
  },
  ["active"],
  "RFC 7662 §2.2: `{active: false}` for any token not live or not the caller's.",
);

export const USERINFO = closed(
  {
    sub: { ...string, format: "uuid" },
    email: string,
    email_verified: { type: "boolean" },
    phone: string,
    phone_verified: { type: "boolean" },
    name: string,
    picture: string,
    preferred_username: string,
    updated_at: { ...integer, description: "Unix time, seconds." },
    user_metadata: { type: "object" },
  },
  ["sub"],
  "OIDC Core §5.3: `sub`, and the claims the session's scopes grant.",
);

/**
 * An answer of a token endpoint that may be an OAuth error (RFC 6749 §5.2) or, for a refusal before
 * OAuth's rules apply (client authentication, a malformed body), an error of the catalogue.
 */
export const oauthErrorOr = (description: string): OperationResponse => ({
  description,
  body: ref("OAuthError"),
  orError: true,
});

/** An HTML page of the built-in consent page. */
export const htmlPage = (description: string): OperationResponse => ({
  description,
  media: "text/html",
  body: { type: "string" } satisfies JsonSchema,
});
