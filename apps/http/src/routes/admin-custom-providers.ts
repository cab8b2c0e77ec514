import { type AuthDeps, failures } from "@authsvc/core";
import {
  type CustomProvider,
  type CustomProviderFields,
  createCustomProvider,
  deleteCustomProvider,
  findCustomProvider,
  listCustomProviders,
  updateCustomProvider,
} from "@authsvc/core/custom-providers";
import { type Context, Hono, type MiddlewareHandler } from "hono";
import * as v from "valibot";
import type { AppEnv } from "../http/app-env.js";
import { defined, flag, metadata, parseBody, text, unwrap } from "../http/body.js";
import { requireAdmin } from "../http/middleware/auth.js";
import { readJsonObject } from "../http/middleware/json-body.js";

const strings = v.pipe(
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
  acceptable_client_ids: strings,
  scopes: strings,
  pkce_enabled: flag,
  attribute_mapping: metadata,
  custom_claims_allowlist: strings,
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

/** The admin routes answer `404 feature_disabled` while `CUSTOM_OAUTH_ENABLED` is off. */
const requireCustomProviders =
  (deps: AuthDeps): MiddlewareHandler<AppEnv> =>
  async (_c, next) => {
    if (!deps.settings.customProviders.enabled) throw failures.customProvidersDisabled();
    await next();
  };

// Hono gives the path parameter decoded (`custom%3Aacme` is `custom:acme`).
const identifierOf = (c: Context<AppEnv>) => c.req.param("identifier") ?? "";

/** `/admin/custom-providers`: list, create, read, update and delete (service role). */
export const customProviderRoutes = (deps: AuthDeps) => {
  const gate = requireCustomProviders(deps);
  const admin = requireAdmin(deps);
  return new Hono<AppEnv>()
    .get("/admin/custom-providers", admin, gate, async (c) => {
      const providers = unwrap(await listCustomProviders(c.get("deps"), c.req.query("type")));
      return c.json({ providers: providers.map(customProviderJson) });
    })
    .post("/admin/custom-providers", admin, gate, async (c) => {
      const provider = unwrap(await createCustomProvider(c.get("deps"), fieldsOf(await readJsonObject(c))));
      return c.json(customProviderJson(provider), 201);
    })
    .get("/admin/custom-providers/:identifier", admin, gate, async (c) => {
      return c.json(customProviderJson(unwrap(await findCustomProvider(c.get("deps"), identifierOf(c)))));
    })
    .put("/admin/custom-providers/:identifier", admin, gate, async (c) => {
      const { providerType: _type, identifier: _identifier, ...fields } = fieldsOf(await readJsonObject(c));
      const input = { identifier: identifierOf(c), fields };
      return c.json(customProviderJson(unwrap(await updateCustomProvider(c.get("deps"), input))));
    })
    .delete("/admin/custom-providers/:identifier", admin, gate, async (c) => {
      unwrap(await deleteCustomProvider(c.get("deps"), identifierOf(c)));
      return c.body(null, 204);
    });
};
