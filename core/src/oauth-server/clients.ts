import { pageWindow } from "../admin/index.js";
import { failures } from "../failures.js";
import { err, isUuid, ok, type Result } from "../kernel/index.js";
import { scopesOf } from "./authorization.js";
import {
  ADMIN_GRANT_TYPES,
  CLIENT_AUTH_METHODS,
  type ClientAuthMethod,
  type ClientJwks,
  type ClientType,
  DEFAULT_GRANT_TYPES,
  isHttpUrl,
  OAUTH_GRANT_TYPES,
  type OAuthClient,
  type OAuthGrantType,
  redirectUriProblem,
  TOKEN_EXCHANGE_GRANT,
} from "./client.js";
import { isClientIdUrl } from "./client-metadata-document.js";
import type { OAuthServerDeps } from "./deps.js";
import { checkLogoutFields, type LogoutFields, logoutMetadataOf } from "./logout-metadata.js";
import { knownScopes } from "./scopes.js";

/** A registration (RFC 7591) or an admin's creation or update: every field as the client sent it. */
export interface ClientFields extends LogoutFields {
  readonly redirectUris?: readonly string[] | undefined;
  readonly clientType?: string | undefined;
  readonly authMethod?: string | undefined;
  readonly grantTypes?: readonly string[] | undefined;
  readonly name?: string | undefined;
  readonly uri?: string | undefined;
  readonly logoUri?: string | undefined;
  /** RFC 7591 `jwks`: an object, as sent; null clears it (admin update). */
  readonly jwks?: unknown;
  /** RFC 7591 `jwks_uri`; empty or null clears it (admin update). */
  readonly jwksUri?: string | null | undefined;
  /** RFC 9126 §6 `require_pushed_authorization_requests`. */
  readonly requirePushedAuthorizationRequests?: boolean | undefined;
  readonly dpopBoundAccessTokens?: boolean | undefined;
  /** Admin only: `token_exchange_audiences`, `token_exchange_impersonation` (token-exchange.ts). */
  readonly tokenExchangeAudiences?: readonly string[] | undefined;
  readonly tokenExchangeImpersonation?: boolean | undefined;
  /** RFC 7591 `scope`: the scopes the client may ask for, space-separated; empty: no list. */
  readonly scope?: string | undefined;
}

/** A client with its secret in the clear: only the answer of a creation or a regeneration holds one. */
export interface IssuedClient {
  readonly client: OAuthClient;
  readonly secret: string | null;
}

type Deps = Pick<OAuthServerDeps, "store" | "clock" | "random" | "tokens" | "clientSecretBox">;

const invalid = (problem: string) => err(failures.clientFieldInvalid(problem));

function checkRedirectUris(uris: readonly string[] | undefined): Result<readonly string[]> {
  if (uris === undefined || uris.length === 0) return invalid("redirect_uris is required");
  if (uris.length > 10) return invalid("redirect_uris must not hold more than 10 URIs");
  for (const uri of uris) {
    if (uri.length > 2048) return invalid("redirect URI is too long");
    const problem = redirectUriProblem(uri);
    if (problem !== null) return invalid(`invalid redirect_uri '${uri}': ${problem}`);
  }
  return ok([...new Set(uris)]);
}

function checkGrantTypes(
  types: readonly string[] | undefined,
  by: { registrationType: "dynamic" | "manual"; clientType: ClientType },
): Result<readonly OAuthGrantType[]> {
  if (types === undefined) return ok(DEFAULT_GRANT_TYPES);
  if (types.length === 0) return invalid("grant_types must not be empty");
  for (const type of types) {
    if (!(OAUTH_GRANT_TYPES as readonly string[]).includes(type))
      return invalid(`grant_type '${type}' is not supported`);
    // Exchanging a user's token for another audience is a trust the operator gives, not one a
    // registration takes for itself.
    if (by.registrationType === "dynamic" && (ADMIN_GRANT_TYPES as readonly string[]).includes(type))
      return invalid(`grant_type '${type}' is given by an admin only`);
    // Anyone could send a public client's id: a token leaked to it would buy tokens for its audiences.
    if (type === TOKEN_EXCHANGE_GRANT && by.clientType !== "confidential")
      return invalid(`grant_type '${type}' needs a confidential client`);
  }
  return ok([...new Set(types)] as OAuthGrantType[]);
}

/** `token_exchange_audiences`: at most 20 absolute URIs or names, without whitespace or fragment. */
function checkExchangeAudiences(audiences: readonly string[]): Result<readonly string[]> {
  if (audiences.length > 20) return invalid("token_exchange_audiences must not hold more than 20 values");
  for (const audience of audiences) {
    if (audience === "" || audience.length > 2048 || /[\s#]/.test(audience))
      return invalid(`invalid token_exchange_audiences value '${audience.slice(0, 100)}'`);
  }
  return ok([...new Set(audiences)]);
}

/** The token exchange fields of a creation or update: an admin's only. */
function checkExchangeFields(
  fields: ClientFields,
  registrationType: "dynamic" | "manual",
): Result<Pick<OAuthClient, "tokenExchangeAudiences" | "tokenExchangeImpersonation">> {
  const { tokenExchangeAudiences: audiences, tokenExchangeImpersonation: impersonation } = fields;
  if (registrationType === "dynamic" && (audiences !== undefined || impersonation !== undefined))
    return invalid("token_exchange_audiences and token_exchange_impersonation are set by an admin only");
  const checked = audiences === undefined ? ok(undefined) : checkExchangeAudiences(audiences);
  if (!checked.ok) return checked;
  return ok({
    ...(checked.value === undefined ? {} : { tokenExchangeAudiences: checked.value }),
    ...(impersonation === undefined ? {} : { tokenExchangeImpersonation: impersonation }),
  });
}

/**
 * The grant types fit the client: `client_credentials` needs a confidential client (a public one
 * proves nothing about who asks), and is an admin's to give — anyone may register a client, and a
 * client that gave itself the grant would mint tokens with no user's consent at all.
 */
function checkGrantFit(
  grantTypes: readonly OAuthGrantType[],
  clientType: ClientType,
  registrationType: "dynamic" | "manual" | "update",
): Result<void> {
  if (!grantTypes.includes("client_credentials")) return ok(undefined);
  if (clientType !== "confidential")
    return invalid("grant_type 'client_credentials' is for confidential clients only");
  if (registrationType === "dynamic")
    return invalid("grant_type 'client_credentials' cannot be registered dynamically: an admin grants it");
  return ok(undefined);
}

/** The client's allowed scopes: each a built-in or custom scope; empty: no list (null). */
async function checkScope(
  deps: Pick<Deps, "store">,
  scope: string | undefined,
): Promise<Result<string | null>> {
  if (scope === undefined || scope.trim() === "") return ok(null);
  if (scope.length > 4096) return invalid("scope must be at most 4096 characters");
  const scopes = scopesOf(scope);
  const known = await knownScopes(deps, scopes);
  const unknown = scopes.find((s) => !known.builtIn.includes(s) && !known.custom.has(s));
  if (unknown !== undefined) return invalid(`scope '${unknown}' is not supported`);
  return ok(scopes.join(" "));
}

function checkText(field: string, value: string | undefined, max: number, url: boolean): Result<void> {
  if (value === undefined || value === "") return ok(undefined);
  if (value.length > max) return invalid(`${field} must be at most ${max} characters`);
  if (url && !isHttpUrl(value, max)) return invalid(`${field} must be an absolute http(s) URL`);
  return ok(undefined);
}

/**
 * The client type and authentication method of a registration (RFC 7591 §2): an explicit type wins,
 * else the method decides (`none` is public), else confidential; the default method is `none` for a
 * public client and `client_secret_basic` for a confidential one. A public client always uses `none`.
 */
function typeAndMethod(
  clientType: string | undefined,
  method: string | undefined,
): Result<{ clientType: ClientType; authMethod: ClientAuthMethod }> {
  if (clientType !== undefined && clientType !== "public" && clientType !== "confidential")
    return invalid("client_type must be 'public' or 'confidential'");
  if (method !== undefined && !(CLIENT_AUTH_METHODS as readonly string[]).includes(method))
    return invalid(`token_endpoint_auth_method must be one of ${CLIENT_AUTH_METHODS.join(", ")}`);
  const type: ClientType = clientType ?? (method === "none" ? "public" : "confidential");
  const authMethod = (method ?? (type === "public" ? "none" : "client_secret_basic")) as ClientAuthMethod;
  if (type === "public" && authMethod !== "none")
    return invalid("public clients must use token_endpoint_auth_method 'none'");
  if (type === "confidential" && authMethod === "none")
    return invalid("confidential clients cannot use token_endpoint_auth_method 'none'");
  return ok({ clientType: type, authMethod });
}

/** Members of a JWK that only a private or symmetric key has: never registered. */
const PRIVATE_MEMBERS = ["d", "p", "q", "dp", "dq", "qi", "oth", "k"];
const MAX_JWKS_KEYS = 20;
const MAX_JWKS_CHARS = 16384;

/** RFC 7591 `jwks`: a key set of at most 20 public keys (no private or symmetric member), at most 16 KiB. */
function checkJwks(jwks: unknown): Result<ClientJwks | null> {
  if (jwks === undefined || jwks === null) return ok(null);
  if (typeof jwks !== "object" || Array.isArray(jwks)) return invalid("jwks must be a JSON Web Key Set");
  const keys = (jwks as { keys?: unknown }).keys;
  if (!Array.isArray(keys) || keys.length === 0) return invalid("jwks must hold a non-empty keys array");
  if (keys.length > MAX_JWKS_KEYS) return invalid(`jwks must not hold more than ${MAX_JWKS_KEYS} keys`);
  if (JSON.stringify(jwks).length > MAX_JWKS_CHARS) return invalid("jwks is too large");
  for (const key of keys) {
    if (typeof key !== "object" || key === null || Array.isArray(key) || typeof key.kty !== "string")
      return invalid("every key of jwks must be a JWK with kty");
    if (key.kty === "oct" || PRIVATE_MEMBERS.some((m) => m in key))
      return invalid("jwks must hold public keys only");
  }
  return ok({ keys: keys as ClientJwks["keys"] });
}

/** RFC 7591 `jwks_uri`: an absolute https URL (the fetch refuses private addresses too). */
function checkJwksUri(uri: string | null | undefined): Result<string | null> {
  if (uri === undefined || uri === null || uri === "") return ok(null);
  if (!isHttpUrl(uri, 2048))
    return invalid("jwks_uri must be an absolute https URL (plain http reaches loopback only in tests)");
  return ok(uri);
}

/**
 * The keys of a method: `private_key_jwt` needs exactly one of `jwks` and `jwks_uri` (RFC 7591 §2);
 * the other methods have none.
 */
function checkKeys(method: ClientAuthMethod, jwks: ClientJwks | null, jwksUri: string | null): Result<void> {
  if (jwks !== null && jwksUri !== null) return invalid("jwks and jwks_uri must not both be given");
  if (method === "private_key_jwt" && jwks === null && jwksUri === null)
    return invalid("private_key_jwt needs jwks or jwks_uri");
  if (method !== "private_key_jwt" && (jwks !== null || jwksUri !== null))
    return invalid("jwks and jwks_uri are for token_endpoint_auth_method 'private_key_jwt'");
  return ok(undefined);
}

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
  for (const [field, value, max, url] of [
    ["client_name", input.name, 1024, false],
    ["client_uri", input.uri, 2048, true],
    ["logo_uri", input.logoUri, 2048, true],
  ] as const) {
    const checked = checkText(field, value, max, url);
    if (!checked.ok) return checked;
  }
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
  for (const [field, value, max, url] of [
    ["client_name", fields.name, 1024, false],
    ["client_uri", fields.uri, 2048, true],
    ["logo_uri", fields.logoUri, 2048, true],
  ] as const) {
    const checked = checkText(field, value, max, url);
    if (!checked.ok) return checked;
  }
  let jwks = client.jwks ?? null;
  let jwksUri = client.jwksUri ?? null;
  if (fields.jwks !== undefined) {
    const checked = checkJwks(fields.jwks);
    if (!checked.ok) return checked;
    jwks = checked.value;
    if (jwks !== null && fields.jwksUri === undefined) jwksUri = null;
  }
  if (fields.jwksUri !== undefined) {
    const checked = checkJwksUri(fields.jwksUri);
    if (!checked.ok) return checked;
    jwksUri = checked.value;
    if (jwksUri !== null && fields.jwks === undefined) jwks = null;
  }
  // Keys belong to private_key_jwt alone: another method drops them.
  if (
    fields.authMethod !== undefined &&
    authMethod !== "private_key_jwt" &&
    fields.jwks === undefined &&
    fields.jwksUri === undefined
  ) {
    jwks = null;
    jwksUri = null;
  }
  const keys = checkKeys(authMethod, jwks, jwksUri);
  if (!keys.ok) return keys;
  if (
    client.secretHash === null &&
    (authMethod === "client_secret_basic" ||
      authMethod === "client_secret_post" ||
      authMethod === "client_secret_jwt")
  )
    return invalid("the client has no secret: regenerate its secret before choosing a secret method");
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
