import { failures } from "@authsvc/core";
import {
  type CustomProvider,
  type CustomProviderFields,
  createCustomProvider,
  deleteCustomProvider,
  findCustomProvider,
  listCustomProviders,
  updateCustomProvider,
} from "@authsvc/core/custom-providers";
import type { Context, MiddlewareHandler } from "hono";
import * as v from "valibot";
import type { AppEnv } from "../../http/app-env.js";
import { defined, flag, metadata, parseBody, text, unwrap } from "../../http/body.js";
import { requireAdmin } from "../../http/middleware/auth.js";
import { readJsonObject } from "../../http/middleware/json-body.js";
import type { JsonSchema } from "../../http/operation.js";
import { closed } from "../../openapi/schemas.js";
import { endpoint, type ModuleContext, type ModuleEndpoint } from "../module.js";

const optionalStrings = v.pipe(
  v.nullish(v.array(v.string("a string"), "an array of strings")),
  v.transform((x) => x ?? undefined),
);

/** The body of creation and update (the reference's `AdminCustomOAuthProviderParams`). */
export const CustomProviderBody = v.object({
  provider_type: text,
  identifier: text,
  name: text,
  client_id: text,
  client_secret: text,
  acceptable_client_ids: optionalStrings,
  scopes: optionalStrings,
  pkce_enabled: flag,
  attribute_mapping: metadata,
  custom_claims_allowlist: optionalStrings,
  authorization_params: metadata,
  enabled: flag,
  email_optional: flag,
  issuer: text,
  discovery_url: text,
  skip_nonce_check: flag,
  authorization_url: text,
  token_url: text,
  userinfo_url: text,
  jwks_uri: text,
});

function fieldsOf(json: Record<string, unknown>): CustomProviderFields {
  const b = parseBody(CustomProviderBody, json);
  return defined({
    providerType: b.provider_type,
    identifier: b.identifier,
    name: b.name,
    clientId: b.client_id,
    clientSecret: b.client_secret,
    acceptableClientIds: b.acceptable_client_ids,
    scopes: b.scopes,
    pkceEnabled: b.pkce_enabled,
    attributeMapping: b.attribute_mapping,
    customClaimsAllowlist: b.custom_claims_allowlist,
    authorizationParams: b.authorization_params,
    enabled: b.enabled,
    emailOptional: b.email_optional,
    issuer: b.issuer,
    discoveryUrl: b.discovery_url,
    skipNonceCheck: b.skip_nonce_check,
    authorizationUrl: b.authorization_url,
    tokenUrl: b.token_url,
    userinfoUrl: b.userinfo_url,
    jwksUri: b.jwks_uri,
  });
}

/** A provider as the admin API answers it: never its client secret, sealed or not. */
export function customProviderJson(p: CustomProvider) {
  const some = <K extends string>(key: K, value: string | null) =>
    (value === null ? {} : { [key]: value }) as Partial<Record<K, string>>;
  return {
    id: p.id,
    provider_type: p.providerType,
    identifier: p.identifier,
    name: p.name,
    client_id: p.clientId,
    acceptable_client_ids: p.acceptableClientIds,
    scopes: p.scopes,
    pkce_enabled: p.pkceEnabled,
    attribute_mapping: p.attributeMapping,
    custom_claims_allowlist: p.customClaimsAllowlist,
    authorization_params: p.authorizationParams,
    enabled: p.enabled,
    email_optional: p.emailOptional,
    ...some("issuer", p.issuer),
    ...some("discovery_url", p.discoveryUrl),
    skip_nonce_check: p.skipNonceCheck,
    ...(p.discovery === null ? {} : { discovery_document: p.discovery }),
    ...some("authorization_url", p.authorizationUrl),
    ...some("token_url", p.tokenUrl),
    ...some("userinfo_url", p.userinfoUrl),
    ...some("jwks_uri", p.jwksUri),
    created_at: p.createdAt.toISOString(),
    updated_at: p.updatedAt.toISOString(),
  };
}

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

/** The admin routes answer `404 feature_disabled` while `CUSTOM_OAUTH_ENABLED` is off. */
const requireCustomProviders =
  ({ auth }: ModuleContext): MiddlewareHandler<AppEnv> =>
  async (_c, next) => {
    if (!auth.settings.customProviders.enabled) throw failures.customProvidersDisabled();
    await next();
  };
const admin = (ctx: ModuleContext) => [requireAdmin(ctx.auth), requireCustomProviders(ctx)];

// Hono gives the path parameter decoded (`custom%3Aacme` is `custom:acme`).
const identifierOf = (c: Context<AppEnv>) => c.req.param("identifier") ?? "";

const identifier = [{ name: "identifier", description: "The provider's `custom:<name>`." }];
const fields = {
  provider_type: { enum: ["oauth2", "oidc"] },
  client_secret: { type: "string", description: "Write only: sealed at rest, never answered." },
};

/** `/admin/custom-providers`: list, create, read, update and delete (service role). */
export const customProviderEndpoints: readonly ModuleEndpoint[] = [
  endpoint(
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
    (ctx) => [
      ...admin(ctx),
      async (c) => {
        const providers = unwrap(await listCustomProviders(c.get("deps"), c.req.query("type")));
        return c.json({ providers: providers.map(customProviderJson) });
      },
    ],
  ),
  endpoint(
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
    (ctx) => [
      ...admin(ctx),
      async (c) => {
        const provider = unwrap(await createCustomProvider(c.get("deps"), fieldsOf(await readJsonObject(c))));
        return c.json(customProviderJson(provider), 201);
      },
    ],
  ),
  endpoint(
    {
      method: "get",
      path: "/admin/custom-providers/{identifier}",
      summary: "Reads a custom provider.",
      access: "admin",
      pathParameters: identifier,
      responses: { 200: { description: "The provider.", body: CUSTOM_PROVIDER } },
      errors: [400, 404],
    },
    (ctx) => [
      ...admin(ctx),
      async (c) =>
        c.json(customProviderJson(unwrap(await findCustomProvider(c.get("deps"), identifierOf(c))))),
    ],
  ),
  endpoint(
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
    (ctx) => [
      ...admin(ctx),
      async (c) => {
        const { providerType: _type, identifier: _identifier, ...fields } = fieldsOf(await readJsonObject(c));
        const input = { identifier: identifierOf(c), fields };
        return c.json(customProviderJson(unwrap(await updateCustomProvider(c.get("deps"), input))));
      },
    ],
  ),
  endpoint(
    {
      method: "delete",
      path: "/admin/custom-providers/{identifier}",
      summary: "Deletes a custom provider; identities signed in with it stay.",
      access: "admin",
      pathParameters: identifier,
      responses: { 204: { description: "Deleted." } },
      errors: [400, 404],
    },
    (ctx) => [
      ...admin(ctx),
      async (c) => {
        unwrap(await deleteCustomProvider(c.get("deps"), identifierOf(c)));
        return c.body(null, 204);
      },
    ],
  ),
];
