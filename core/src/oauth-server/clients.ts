import { pageWindow } from "../admin/index.js";
import { failures } from "../failures.js";
import { err, isUuid, ok, type Result } from "../kernel/index.js";
import type { ClientAuthMethod, OAuthClient } from "./client.js";
import {
  type ClientFields,
  checkExchangeFields,
  checkGrantFit,
  checkGrantTypes,
  checkRedirectUris,
  checkScope,
  checkTexts,
  invalidField,
  typeAndMethod,
} from "./client-field-checks.js";
import { checkJwks, checkJwksUri, checkKeys, keysAfterUpdate } from "./client-keys.js";
import { isClientIdUrl } from "./client-metadata-document.js";
import type { OAuthServerDeps } from "./deps.js";
import { checkLogoutFields, logoutMetadataOf } from "./logout-metadata.js";

export type { ClientFields } from "./client-field-checks.js";

/** A client with its secret in the clear: only the answer of a creation or a regeneration holds one. */
export interface IssuedClient {
  readonly client: OAuthClient;
  readonly secret: string | null;
}

type Deps = Pick<OAuthServerDeps, "store" | "clock" | "random" | "tokens" | "clientSecretBox">;

/**
 * The secret of a method: `private_key_jwt` has none (null hash); `client_secret_jwt` keeps it sealed
 * beside its hash, since the HMAC of its assertions is checked with the secret itself.
 */
function secretFor(
  deps: Pick<Deps, "tokens" | "clientSecretBox">,
  clientId: string,
  method: ClientAuthMethod,
): { secret: string; hash: string; sealed: string | null } | null {
  if (method === "none" || method === "private_key_jwt") return null;
  const { secret, hash } = newSecret(deps);
  return {
    secret,
    hash,
    sealed: method === "client_secret_jwt" ? deps.clientSecretBox.seal(clientId, secret) : null,
  };
}

/** A new secret and its hash: two fresh tokens of the CSPRNG (288 bits in production); only the hash is stored. */
function newSecret(deps: Pick<Deps, "tokens">): { secret: string; hash: string } {
  const secret = `${deps.tokens.generate()}${deps.tokens.generate()}`;
  return { secret, hash: deps.tokens.hash(secret) };
}

/**
 * Registers a client: dynamically (`POST /oauth/clients/register`, RFC 7591) or by an admin
 * (`POST /admin/oauth/clients`). A confidential client's secret is answered once and stored hashed.
 */
export async function registerClient(
  deps: Deps,
  input: ClientFields & { readonly registrationType: "dynamic" | "manual" },
): Promise<Result<IssuedClient>> {
  const redirectUris = checkRedirectUris(input.redirectUris);
  if (!redirectUris.ok) return redirectUris;
  const kind = typeAndMethod(input.clientType, input.authMethod);
  if (!kind.ok) return kind;
  const grantTypes = checkGrantTypes(input.grantTypes, {
    registrationType: input.registrationType,
    clientType: kind.value.clientType,
  });
  if (!grantTypes.ok) return grantTypes;
  const exchange = checkExchangeFields(input, input.registrationType);
  if (!exchange.ok) return exchange;
  const fit = checkGrantFit(grantTypes.value, kind.value.clientType, input.registrationType);
  if (!fit.ok) return fit;
  const scope = await checkScope(deps, input.scope);
  if (!scope.ok) return scope;
  const texts = checkTexts(input);
  if (!texts.ok) return texts;
  const jwks = checkJwks(input.jwks);
  if (!jwks.ok) return jwks;
  const jwksUri = checkJwksUri(input.jwksUri);
  if (!jwksUri.ok) return jwksUri;
  const keys = checkKeys(kind.value.authMethod, jwks.value, jwksUri.value);
  if (!keys.ok) return keys;
  const logout = checkLogoutFields(input);
  if (!logout.ok) return logout;
  const now = deps.clock.now();
  const id = deps.random.uuid();
  const issued = secretFor(deps, id, kind.value.authMethod);
  const client: OAuthClient = {
    id,
    secretHash: issued?.hash ?? null,
    secretSealed: issued?.sealed ?? null,
    jwks: jwks.value,
    jwksUri: jwksUri.value,
    requirePushedAuthorizationRequests: input.requirePushedAuthorizationRequests === true,
    registrationType: input.registrationType,
    clientType: kind.value.clientType,
    authMethod: kind.value.authMethod,
    redirectUris: redirectUris.value,
    grantTypes: grantTypes.value,
    name: input.name || null,
    uri: input.uri || null,
    logoUri: input.logoUri || null,
    ...(input.dpopBoundAccessTokens ? { dpopBoundAccessTokens: true } : {}),
    tokenExchangeAudiences: exchange.value.tokenExchangeAudiences ?? [],
    tokenExchangeImpersonation: exchange.value.tokenExchangeImpersonation ?? false,
    scope: scope.value,
    createdAt: now,
    updatedAt: now,
    ...logout.value,
  };
  await deps.store.oauthClients.insert(client);
  return ok({ client, secret: issued?.secret ?? null });
}

/** One page of the clients, with what the HTTP layer needs for `X-Total-Count` and `Link`. */
export interface ClientPage {
  readonly clients: OAuthClient[];
  readonly total: number;
  readonly page: number;
  readonly perPage: number;
}

/**
 * `GET /admin/oauth/clients`: the live clients newest first, paged as the admin's other lists (page 1
 * and 50 a page by default, at most 1000). The reference answers every client at once, which anyone
 * able to register clients can make a response of any size.
 */
export async function listClients(
  deps: Pick<Deps, "store">,
  input: { readonly page?: number; readonly perPage?: number },
): Promise<Result<ClientPage>> {
  const window = pageWindow(input);
  if (!window.ok) return window;
  const { page, perPage, offset } = window.value;
  const { clients, total } = await deps.store.oauthClients.list({ offset, limit: perPage });
  return ok({ clients, total, page, perPage });
}

/**
 * The live client `id` — a UUID, or the URL of a client metadata document's client as stored (never
 * fetched here): 400 for a malformed id, 404 for an unknown or deleted one.
 */
export async function findClient(deps: Pick<Deps, "store">, id: string): Promise<Result<OAuthClient>> {
  if (isClientIdUrl(id)) {
    const client = await deps.store.oauthClients.findByMetadataUrl(id);
    return client === null ? err(failures.clientNotFound()) : ok(client);
  }
  if (!isUuid(id)) return err(failures.clientIdMalformed());
  const client = await deps.store.oauthClients.find(id);
  return client === null ? err(failures.clientNotFound()) : ok(client);
}

/** `PUT /admin/oauth/clients/{id}`: changes the fields given; the client type never changes. */
export async function updateClient(
  deps: Deps,
  input: { readonly id: string; readonly fields: Omit<ClientFields, "clientType"> },
): Promise<Result<OAuthClient>> {
  const found = await findClient(deps, input.id);
  if (!found.ok) return found;
  const client = found.value;
  // Its document is its registration: what the admin set would be undone at the next fetch.
  if (client.metadataUrl) return err(failures.clientDocumentNotEditable());
  const { fields } = input;
  if (Object.values(fields).every((value) => value === undefined)) return err(failures.clientUpdateEmpty());
  let { redirectUris, grantTypes, authMethod } = client;
  if (fields.redirectUris !== undefined) {
    const checked = checkRedirectUris(fields.redirectUris);
    if (!checked.ok) return checked;
    redirectUris = checked.value;
  }
  if (fields.grantTypes !== undefined) {
    const checked = checkGrantTypes(fields.grantTypes, {
      registrationType: "manual",
      clientType: client.clientType,
    });
    if (!checked.ok) return checked;
    grantTypes = checked.value;
  }
  const exchange = checkExchangeFields(fields, "manual");
  if (!exchange.ok) return exchange;
  if (fields.authMethod !== undefined) {
    const checked = typeAndMethod(client.clientType, fields.authMethod);
    if (!checked.ok) return checked;
    authMethod = checked.value.authMethod;
  }
  const fit = checkGrantFit(grantTypes, client.clientType, "update");
  if (!fit.ok) return fit;
  let scope = client.scope ?? null;
  if (fields.scope !== undefined) {
    const checked = await checkScope(deps, fields.scope);
    if (!checked.ok) return checked;
    scope = checked.value;
  }
  const texts = checkTexts(fields);
  if (!texts.ok) return texts;
  const keys = keysAfterUpdate(client, fields, authMethod);
  if (!keys.ok) return keys;
  const { jwks, jwksUri } = keys.value;
  if (
    client.secretHash === null &&
    (authMethod === "client_secret_basic" ||
      authMethod === "client_secret_post" ||
      authMethod === "client_secret_jwt")
  )
    return invalidField("the client has no secret: regenerate its secret before choosing a secret method");
  // A client turned to client_secret_jwt has no readable secret until a new one is issued
  // (regenerate_secret): only a hash is kept of the one it had. Another method keeps none sealed.
  const secretSealed = authMethod === "client_secret_jwt" ? (client.secretSealed ?? null) : null;
  const logout = checkLogoutFields(fields, logoutMetadataOf(client));
  if (!logout.ok) return logout;
  const updated: OAuthClient = {
    ...client,
    ...logout.value,
    redirectUris,
    grantTypes,
    authMethod,
    jwks,
    jwksUri,
    secretSealed,
    requirePushedAuthorizationRequests:
      fields.requirePushedAuthorizationRequests ?? client.requirePushedAuthorizationRequests ?? false,
    name: fields.name === undefined ? client.name : fields.name || null,
    uri: fields.uri === undefined ? client.uri : fields.uri || null,
    logoUri: fields.logoUri === undefined ? client.logoUri : fields.logoUri || null,
    dpopBoundAccessTokens: fields.dpopBoundAccessTokens ?? client.dpopBoundAccessTokens ?? false,
    ...exchange.value,
    scope,
    updatedAt: deps.clock.now(),
  };
  if (!(await deps.store.oauthClients.update(updated))) return err(failures.clientNotFound());
  return ok(updated);
}

/** `POST /admin/oauth/clients/{id}/regenerate_secret`: a confidential client's new secret; the old one stops working. */
export async function regenerateClientSecret(deps: Deps, id: string): Promise<Result<IssuedClient>> {
  const found = await findClient(deps, id);
  if (!found.ok) return found;
  if (found.value.clientType !== "confidential") return err(failures.clientNotConfidential());
  // A private_key_jwt client is given a secret too, unused while it keeps that method.
  const { secret, hash } = newSecret(deps);
  const secretSealed =
    found.value.authMethod === "client_secret_jwt" ? deps.clientSecretBox.seal(found.value.id, secret) : null;
  const client = { ...found.value, secretHash: hash, secretSealed, updatedAt: deps.clock.now() };
  if (!(await deps.store.oauthClients.update(client))) return err(failures.clientNotFound());
  return ok({ client, secret });
}

/**
 * `DELETE /admin/oauth/clients/{id}`: a soft delete; the client's sessions end with it. A client
 * metadata document's client (by its URL) is forgotten with its consents and sessions; its next use
 * fetches its document again as a new client (the allowed hosts are what keeps a URL out).
 */
export async function deleteClient(deps: Pick<Deps, "store" | "clock">, id: string): Promise<Result<void>> {
  let internalId = id;
  if (isClientIdUrl(id)) {
    const client = await deps.store.oauthClients.findByMetadataUrl(id);
    if (client === null) return err(failures.clientNotFound());
    internalId = client.id;
  } else if (!isUuid(id)) return err(failures.clientIdMalformed());
  const deleted = await deps.store.oauthClients.softDelete(internalId, deps.clock.now());
  return deleted ? ok(undefined) : err(failures.clientNotFound());
}
