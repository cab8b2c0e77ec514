import type { Operation } from "../../http/operation.js";
import { closed } from "../../openapi/schemas.js";

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
    introspection_endpoint: url,
    introspection_endpoint_auth_methods_supported: strings,
    scopes_supported: strings,
    response_types_supported: strings,
    response_modes_supported: strings,
    grant_types_supported: strings,
    subject_types_supported: strings,
    id_token_signing_alg_values_supported: strings,
    token_endpoint_auth_methods_supported: strings,
    code_challenge_methods_supported: strings,
    claims_supported: strings,
    authorization_response_iss_parameter_supported: { type: "boolean" },
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

/**
 * Discovery (routes/oauth/discovery.ts). Each path is also served in RFC 8414's path-insertion form,
 * with the issuer's path appended (`/.well-known/oauth-authorization-server/auth/v1`).
 */
/** The issuer's path, e.g. `auth/v1`: any number of segments. */
const issuerPath = {
  name: "issuer_path",
  description: "The path of the issuer (`JWT_ISSUER`), e.g. `auth/v1`; the metadata is the same.",
  segments: "many",
} as const;

export const discoveryOperations: readonly Operation[] = [
  {
    method: "get",
    path: "/.well-known/openid-configuration",
    summary: "The OpenID Provider metadata; served even with the OAuth server off.",
    access: "public",
    responses: { 200: metadata },
  },
  {
    method: "get",
    path: "/.well-known/oauth-authorization-server",
    summary: "The OAuth authorization server metadata (RFC 8414).",
    description: "Answered `404 feature_disabled` with the OAuth server off.",
    access: "public",
    responses: { 200: metadata },
    errors: [404],
  },
  ...(["/.well-known/openid-configuration", "/.well-known/oauth-authorization-server"] as const).map(
    (path): Operation => ({
      method: "get",
      path: `${path}/{issuer_path}`,
      summary: "The same metadata in RFC 8414's path-insertion form: the issuer's path appended.",
      access: "public",
      pathParameters: [issuerPath],
      responses: { 200: metadata },
      errors: path.endsWith("authorization-server") ? [404] : [],
    }),
  ),
];
