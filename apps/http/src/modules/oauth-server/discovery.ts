import type { AuthDeps } from "@authsvc/core";
import {
  CLIENT_SECRET_JWT_ALGORITHMS,
  DEVICE_CODE_GRANT_TYPE,
  listScopes,
  OAUTH_SCOPES,
  PRIVATE_KEY_JWT_ALGORITHMS,
  TOKEN_EXCHANGE_GRANT,
} from "@authsvc/core/oauth-server";
import type { Context } from "hono";
import type { AppEnv } from "../../http/app-env.js";
import type { Operation } from "../../http/operation.js";
import { closed } from "../../openapi/schemas.js";
import { endpoint, type ModuleContext, type ModuleEndpoint } from "../module.js";
import { endpointUrl, issuerOf, requireOAuthServer } from "./oauth-http.js";

const CLAIMS = [
  "sub",
  "aud",
  "iss",
  "exp",
  "iat",
  "auth_time",
  "sid",
  "acr",
  "amr",
  "nonce",
  "email",
  "email_verified",
  "phone_number",
  "phone_number_verified",
  "name",
  "picture",
  "preferred_username",
  "updated_at",
];

/**
 * The authorization server's metadata (RFC 8414), which is also its OpenID Provider metadata; its
 * `scopes_supported` are OpenID Connect's and the custom scopes (`/admin/oauth/scopes`).
 */
export async function discoveryDocument(deps: AuthDeps) {
  const { enabled, allowDynamicRegistration } = deps.settings.oauthServer;
  const at = (path: string) => endpointUrl(deps, path);
  const clientAuth = ["client_secret_basic", "client_secret_post", "private_key_jwt", "client_secret_jwt"];
  // RFC 7523: what client assertions may be signed with (never `none`).
  const assertionAlgs = [...PRIVATE_KEY_JWT_ALGORITHMS, ...CLIENT_SECRET_JWT_ALGORITHMS];
  return {
    issuer: issuerOf(deps),
    authorization_endpoint: at("/oauth/authorize"),
    token_endpoint: at("/oauth/token"),
    jwks_uri: at("/.well-known/jwks.json"),
    userinfo_endpoint: at("/oauth/userinfo"),
    ...(enabled && allowDynamicRegistration ? { registration_endpoint: at("/oauth/clients/register") } : {}),
    revocation_endpoint: at("/oauth/revoke"),
    revocation_endpoint_auth_methods_supported: [...clientAuth, "none"],
    revocation_endpoint_auth_signing_alg_values_supported: assertionAlgs,
    introspection_endpoint: at("/oauth/introspect"),
    introspection_endpoint_auth_methods_supported: clientAuth,
    introspection_endpoint_auth_signing_alg_values_supported: assertionAlgs,
    scopes_supported: [...OAUTH_SCOPES, ...(enabled ? (await listScopes(deps)).map((s) => s.scope) : [])],
    response_types_supported: ["code"],
    response_modes_supported: ["query"],
    grant_types_supported: [
      "authorization_code",
      "refresh_token",
      "client_credentials",
      DEVICE_CODE_GRANT_TYPE,
      TOKEN_EXCHANGE_GRANT,
    ],
    device_authorization_endpoint: at("/oauth/device_authorization"),
    subject_types_supported: ["public"],
    id_token_signing_alg_values_supported: ["RS256", "ES256", "RS512", "ES512", "EdDSA"],
    token_endpoint_auth_methods_supported: [...clientAuth, "none"],
    token_endpoint_auth_signing_alg_values_supported: assertionAlgs,
    code_challenge_methods_supported: ["S256"],
    // RFC 9126 §5.
    pushed_authorization_request_endpoint: at("/oauth/par"),
    require_pushed_authorization_requests: deps.settings.oauthServer.requirePushedAuthorizationRequests,
    claims_supported: CLAIMS,
    // The ID token's `acr` is the session's assurance level: aal2 once the user passed a second factor.
    acr_values_supported: ["aal1", "aal2"],
    // RFC 9207: every authorization response names the issuer, so a client can tell which server answered.
    authorization_response_iss_parameter_supported: true,
    // OpenID Connect RP-Initiated and Back-Channel Logout (docs/oauth-logout.md).
    end_session_endpoint: at("/oauth/logout"),
    backchannel_logout_supported: true,
    backchannel_logout_session_supported: true,
    // A URL may be a client_id (draft-ietf-oauth-client-id-metadata-document), when the switch is on.
    ...(enabled && deps.settings.oauthServer.clientMetadataDocuments?.enabled
      ? { client_id_metadata_document_supported: true }
      : {}),
    // RFC 9449 §5.1: DPoP proofs are accepted at the token endpoint (and `/oauth/userinfo`), with these.
    dpop_signing_alg_values_supported: [...deps.settings.dpop.algorithms],
  };
}

const string = { type: "string" } as const;
const url = { type: "string", format: "uri" } as const;
const strings = { type: "array", items: string } as const;

const METADATA = closed(
  {
    issuer: url,
    authorization_endpoint: url,
    token_endpoint: url,
    jwks_uri: url,
    userinfo_endpoint: url,
    registration_endpoint: { ...url, description: "Only with dynamic registration on." },
    revocation_endpoint: url,
    revocation_endpoint_auth_methods_supported: strings,
    revocation_endpoint_auth_signing_alg_values_supported: strings,
    introspection_endpoint: url,
    introspection_endpoint_auth_methods_supported: strings,
    introspection_endpoint_auth_signing_alg_values_supported: strings,
    scopes_supported: strings,
    response_types_supported: strings,
    response_modes_supported: strings,
    grant_types_supported: strings,
    device_authorization_endpoint: { ...url, description: "RFC 8628: where a device starts its request." },
    subject_types_supported: strings,
    id_token_signing_alg_values_supported: strings,
    token_endpoint_auth_methods_supported: strings,
    token_endpoint_auth_signing_alg_values_supported: strings,
    code_challenge_methods_supported: strings,
    pushed_authorization_request_endpoint: url,
    require_pushed_authorization_requests: { type: "boolean" },
    claims_supported: strings,
    acr_values_supported: strings,
    authorization_response_iss_parameter_supported: { type: "boolean" },
    end_session_endpoint: url,
    backchannel_logout_supported: { type: "boolean" },
    backchannel_logout_session_supported: { type: "boolean" },
    client_id_metadata_document_supported: {
      type: "boolean",
      description: "A URL may be a `client_id` (a client ID metadata document); only when it may.",
    },
    dpop_signing_alg_values_supported: strings,
  },
  [
    "issuer",
    "authorization_endpoint",
    "token_endpoint",
    "jwks_uri",
    "userinfo_endpoint",
    "revocation_endpoint",
    "introspection_endpoint",
    "scopes_supported",
    "response_types_supported",
    "grant_types_supported",
    "token_endpoint_auth_methods_supported",
    "code_challenge_methods_supported",
  ],
  "The authorization server's metadata (RFC 8414 §2), also its OpenID Provider metadata.",
);

const metadata = {
  description: "The metadata.",
  body: METADATA,
  headers: { "cache-control": { description: "`public, max-age=600`.", required: true } },
};

/** The issuer's path, e.g. `auth/v1`: any number of segments. */
const issuerPath = {
  name: "issuer_path",
  description: "The path of the issuer (`JWT_ISSUER`), e.g. `auth/v1`; the metadata is the same.",
  segments: "many",
} as const;

const answer =
  ({ auth }: ModuleContext) =>
  async (c: Context<AppEnv>) => {
    c.header("Cache-Control", "public, max-age=600");
    return c.json(await discoveryDocument(auth));
  };
const gate = ({ auth }: ModuleContext) => requireOAuthServer(auth);

const OPENID: Operation = {
  method: "get",
  path: "/.well-known/openid-configuration",
  summary: "The OpenID Provider metadata; served even with the OAuth server off.",
  access: "public",
  responses: { 200: metadata },
};
const AUTHORIZATION_SERVER: Operation = {
  method: "get",
  path: "/.well-known/oauth-authorization-server",
  summary: "The OAuth authorization server metadata (RFC 8414).",
  description: "Answered `404 feature_disabled` with the OAuth server off.",
  access: "public",
  responses: { 200: metadata },
  errors: [404],
};
/** A metadata path in RFC 8414's path-insertion form: the issuer's path appended. */
const pathInserted = (operation: Operation): Operation => ({
  method: "get",
  path: `${operation.path}/{issuer_path}`,
  summary: "The same metadata in RFC 8414's path-insertion form: the issuer's path appended.",
  access: "public",
  pathParameters: [issuerPath],
  responses: { 200: metadata },
  errors: operation.errors ?? [],
});

/**
 * `/.well-known/openid-configuration` (always served, as the reference) and
 * `/.well-known/oauth-authorization-server` (only with the server on), each also in RFC 8414's
 * path-insertion form (`/.well-known/oauth-authorization-server/auth/v1` for an issuer under `/auth/v1`).
 */
export const discoveryEndpoints: readonly ModuleEndpoint[] = [
  endpoint(OPENID, (ctx) => [answer(ctx)]),
  endpoint(AUTHORIZATION_SERVER, (ctx) => [gate(ctx), answer(ctx)]),
  endpoint(pathInserted(OPENID), (ctx) => [answer(ctx)]),
  endpoint(pathInserted(AUTHORIZATION_SERVER), (ctx) => [gate(ctx), answer(ctx)]),
];
