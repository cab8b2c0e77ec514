import type { JsonSchema, Operation } from "../http/operation.js";
import { closed } from "../openapi/schemas.js";
import { CustomProviderBody } from "./admin-custom-providers.js";

const string = { type: "string" } as const;
const strings = { type: "array", items: string } as const;
const time = { type: "string", format: "date-time" } as const;
const anyObject = { type: "object" } as const;

const DISCOVERY_DOCUMENT = closed(
  {
    issuer: string,
    authorization_endpoint: string,
    token_endpoint: string,
    jwks_uri: string,
    userinfo_endpoint: string,
    scopes_supported: strings,
    response_types_supported: strings,
    grant_types_supported: strings,
    subject_types_supported: strings,
    token_endpoint_auth_methods_supported: strings,
  },
  ["issuer", "authorization_endpoint", "token_endpoint", "jwks_uri"],
  "The provider's OpenID discovery document, as fetched when it was created or its issuer changed.",
);

/** A custom provider as the admin API answers it (`customProviderJson`); never its client secret. */
export const CUSTOM_PROVIDER: JsonSchema = closed(
  {
    id: { ...string, format: "uuid" },
    provider_type: { enum: ["oauth2", "oidc"] },
    identifier: { ...string, description: "`custom:<name>`: the provider's name at `/authorize`." },
    name: string,
    client_id: string,
    acceptable_client_ids: strings,
    scopes: strings,
    pkce_enabled: { type: "boolean" },
    attribute_mapping: anyObject,
    custom_claims_allowlist: strings,
    authorization_params: { type: "object", additionalProperties: string },
    enabled: { type: "boolean" },
    email_optional: { type: "boolean" },
    issuer: { ...string, description: "OpenID providers." },
    discovery_url: { ...string, description: "OpenID providers, when given." },
    skip_nonce_check: { type: "boolean" },
    discovery_document: DISCOVERY_DOCUMENT,
    authorization_url: { ...string, description: "OAuth 2.0 providers." },
    token_url: { ...string, description: "OAuth 2.0 providers." },
    userinfo_url: { ...string, description: "OAuth 2.0 providers." },
    jwks_uri: { ...string, description: "OAuth 2.0 providers, when given." },
    created_at: time,
    updated_at: time,
  },
  [
    "id",
    "provider_type",
    "identifier",
    "name",
    "client_id",
    "acceptable_client_ids",
    "scopes",
    "pkce_enabled",
    "attribute_mapping",
    "custom_claims_allowlist",
    "authorization_params",
    "enabled",
    "email_optional",
    "skip_nonce_check",
    "created_at",
    "updated_at",
  ],
  "A custom OAuth 2.0 or OpenID Connect provider.",
);

const identifier = [{ name: "identifier", description: "The provider's `custom:<name>`." }];
const fields = {
  provider_type: { enum: ["oauth2", "oidc"] },
  client_secret: { type: "string", description: "Write only: sealed at rest, never answered." },
};

/** The admin's custom providers (routes/admin-custom-providers.ts). */
export const customProviderOperations: readonly Operation[] = [
  {
    method: "get",
    path: "/admin/custom-providers",
    summary: "Lists the custom providers, oldest first.",
    access: "admin",
    query: [{ name: "type", description: "`oauth2` or `oidc`: only that type." }],
    responses: {
      200: {
        description: "The providers.",
        body: closed({ providers: { type: "array", items: CUSTOM_PROVIDER } }),
      },
    },
    errors: [400, 404],
  },
  {
    method: "post",
    path: "/admin/custom-providers",
    summary: "Creates a custom provider.",
    description:
      "Checks the fields, the quota (`CUSTOM_OAUTH_MAX_PROVIDERS`), every URL (https, public addresses only) and, for an OpenID provider, its discovery document (whose `issuer` must equal `issuer` exactly).",
    access: "admin",
    body: { schema: CustomProviderBody, fields },
    responses: { 201: { description: "The provider.", body: CUSTOM_PROVIDER } },
    errors: [400, 404],
  },
  {
    method: "get",
    path: "/admin/custom-providers/{identifier}",
    summary: "Reads a custom provider.",
    access: "admin",
    pathParameters: identifier,
    responses: { 200: { description: "The provider.", body: CUSTOM_PROVIDER } },
    errors: [400, 404],
  },
  {
    method: "put",
    path: "/admin/custom-providers/{identifier}",
    summary: "Updates the fields sent (not the type nor the identifier).",
    description:
      "An OpenID provider's discovery document is fetched again when `issuer` or `discovery_url` is sent; a non-empty `client_secret` replaces the secret.",
    access: "admin",
    pathParameters: identifier,
    body: { schema: CustomProviderBody, fields },
    responses: { 200: { description: "The provider.", body: CUSTOM_PROVIDER } },
    errors: [400, 404],
  },
  {
    method: "delete",
    path: "/admin/custom-providers/{identifier}",
    summary: "Deletes a custom provider; identities signed in with it stay.",
    access: "admin",
    pathParameters: identifier,
    responses: { 204: { description: "Deleted." } },
    errors: [400, 404],
  },
];
