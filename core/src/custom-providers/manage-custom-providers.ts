import { failures } from "../failures.js";
import { err, ok, type Result } from "../kernel/index.js";
import { type CustomProvider, type CustomProviderType, discoveryUrlOf } from "./custom-provider.js";
import type { CustomProvidersDeps } from "./deps.js";
import type { CustomProviderFields } from "./fields.js";
import {
  changedUrls,
  creationProblems,
  fieldProblems,
  identifierProblem,
  newProvider,
  updatedProvider,
  urlFields,
} from "./rules.js";

type Deps = Pick<
  CustomProvidersDeps,
  "store" | "clock" | "random" | "settings" | "secretBox" | "providerEndpoints"
>;

/** Refuses a URL authsvc must not call (see `ProviderEndpoints.refusal`), naming the field. */
async function urlsRefused(deps: Pick<Deps, "providerEndpoints">, urls: readonly [string, string][]) {
  for (const [key, url] of urls) {
    const refusal = await deps.providerEndpoints.refusal(url);
    if (refusal !== null) return err(failures.customProviderInvalid(`${key} is not allowed: ${refusal}`));
  }
  return ok(null);
}

/**
 * Fetches and checks an OpenID provider's discovery document, and checks every endpoint it names
 * the way the admin's own URLs are checked: the document must not lead authsvc to a private address.
 */
async function discovered(deps: Pick<Deps, "providerEndpoints" | "clock">, provider: CustomProvider) {
  const url = discoveryUrlOf(provider);
  const found = await deps.providerEndpoints.discover(url, provider.issuer ?? "");
  if (!found.ok) return err(failures.customProviderDiscoveryFailed(url, found.error));
  const doc = found.value;
  const endpoints: [string, string][] = [
    ["authorization_endpoint", doc.authorization_endpoint],
    ["token_endpoint", doc.token_endpoint],
    ["jwks_uri", doc.jwks_uri],
    ...(doc.userinfo_endpoint ? [["userinfo_endpoint", doc.userinfo_endpoint] as [string, string]] : []),
  ];
  for (const [key, endpoint] of endpoints) {
    const refusal = await deps.providerEndpoints.refusal(endpoint);
    if (refusal !== null) return err(failures.customProviderDiscoveryFailed(url, `${key}: ${refusal}`));
  }
  return ok({ ...provider, discovery: doc, discoveryCachedAt: deps.clock.now() });
}

/**
 * `POST /admin/custom-providers`: checks the fields (type, required ones, reserved authorization
 * parameters, protected mapping targets, lengths), the quota, every URL (https, public addresses),
 * the identifier's freedom and, for an OpenID provider, its discovery document; then stores the
 * provider with its client secret sealed. The quota and the identifier are checked again in the insert.
 */
export async function createCustomProvider(
  deps: Deps,
  fields: CustomProviderFields,
): Promise<Result<CustomProvider>> {
  const type = creationProblems(fields);
  if (!type.ok) return type;
  const { maxProviders } = deps.settings.customProviders;
  if (maxProviders > 0 && (await deps.store.customProviders.count()) >= maxProviders) {
    return err(failures.overCustomProviderQuota());
  }
  const urls = await urlsRefused(deps, urlFields(providerUrls(type.value, fields)));
  if (!urls.ok) return urls;
  if ((await deps.store.customProviders.find(fields.identifier ?? "")) !== null) {
    return err(failures.customProviderExists());
  }
  let provider = newProvider(deps.random.uuid(), type.value, fields, deps.clock.now());
  if (provider.providerType === "oidc") {
    const withDiscovery = await discovered(deps, provider);
    if (!withDiscovery.ok) return withDiscovery;
    provider = withDiscovery.value;
  }
  provider = { ...provider, sealedSecret: deps.secretBox.seal(provider.id, fields.clientSecret ?? "") };
  const created = await deps.store.customProviders.create(provider, maxProviders);
  if (created === "duplicate") return err(failures.customProviderExists());
  if (created === "over_quota") return err(failures.overCustomProviderQuota());
  return ok(provider);
}

/** Only the URL fields of the provider's own type are checked (and kept). */
function providerUrls(type: CustomProviderType, fields: CustomProviderFields): CustomProviderFields {
  return type === "oidc"
    ? { issuer: fields.issuer, discoveryUrl: fields.discoveryUrl }
    : {
        authorizationUrl: fields.authorizationUrl,
        tokenUrl: fields.tokenUrl,
        userinfoUrl: fields.userinfoUrl,
        jwksUri: fields.jwksUri,
      };
}

/**
 * `PUT /admin/custom-providers/{identifier}`: a partial update (`updatedProvider`). Changed URLs are
 * checked again; an OpenID provider's discovery is fetched again when `issuer` or `discovery_url`
 * is sent; a non-empty `client_secret` is sealed in place of the old one.
 */
export async function updateCustomProvider(
  deps: Deps,
  input: { readonly identifier: string; readonly fields: CustomProviderFields },
): Promise<Result<CustomProvider>> {
  const current = await findCustomProvider(deps, input.identifier);
  if (!current.ok) return current;
  const { fields } = input;
  const checked = fieldProblems(fields);
  if (!checked.ok) return checked;
  const urls = await urlsRefused(deps, changedUrls(current.value.providerType, fields));
  if (!urls.ok) return urls;
  let provider = updatedProvider(current.value, fields, deps.clock.now());
  if (provider.providerType === "oidc" && (fields.issuer || fields.discoveryUrl)) {
    const withDiscovery = await discovered(deps, provider);
    if (!withDiscovery.ok) return withDiscovery;
    provider = withDiscovery.value;
  }
  if (fields.clientSecret) {
    provider = { ...provider, sealedSecret: deps.secretBox.seal(provider.id, fields.clientSecret) };
  }
  if (!(await deps.store.customProviders.update(provider))) return err(failures.customProviderNotFound());
  return ok(provider);
}

/** `GET /admin/custom-providers/{identifier}`: a malformed identifier is 400, an unknown one 404. */
export async function findCustomProvider(
  deps: Pick<Deps, "store">,
  identifier: string,
): Promise<Result<CustomProvider>> {
  const problem = identifierProblem(identifier);
  if (problem !== null) return err(problem);
  const provider = await deps.store.customProviders.find(identifier);
  return provider === null ? err(failures.customProviderNotFound()) : ok(provider);
}

/** `GET /admin/custom-providers[?type=]`: every provider, or one type's; another type is 400. */
export async function listCustomProviders(
  deps: Pick<Deps, "store">,
  type: string | undefined,
): Promise<Result<readonly CustomProvider[]>> {
  if (type === undefined || type === "") return ok(await deps.store.customProviders.list());
  if (type !== "oauth2" && type !== "oidc") {
    return err(failures.customProviderInvalid("type must be either 'oauth2' or 'oidc'"));
  }
  return ok(await deps.store.customProviders.list(type));
}

/** `DELETE /admin/custom-providers/{identifier}`; its users' identities stay, as the reference's do. */
export async function deleteCustomProvider(
  deps: Pick<Deps, "store">,
  identifier: string,
): Promise<Result<null>> {
  const problem = identifierProblem(identifier);
  if (problem !== null) return err(problem);
  return (await deps.store.customProviders.delete(identifier))
    ? ok(null)
    : err(failures.customProviderNotFound());
}
