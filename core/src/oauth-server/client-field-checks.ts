import { failures } from "../failures.js";
import { err, ok, type Result } from "../kernel/index.js";
import { scopesOf } from "./authorization.js";
import {
  ADMIN_GRANT_TYPES,
  CLIENT_AUTH_METHODS,
  type ClientAuthMethod,
  type ClientType,
  DEFAULT_GRANT_TYPES,
  isHttpUrl,
  OAUTH_GRANT_TYPES,
  type OAuthClient,
  type OAuthGrantType,
  redirectUriProblem,
  TOKEN_EXCHANGE_GRANT,
} from "./client.js";
import type { OAuthServerDeps } from "./deps.js";
import type { LogoutFields } from "./logout-metadata.js";
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

/** A field refused, in the words the client or admin reads. */
export const invalidField = (problem: string) => err(failures.clientFieldInvalid(problem));
const invalid = invalidField;

export function checkRedirectUris(uris: readonly string[] | undefined): Result<readonly string[]> {
  if (uris === undefined || uris.length === 0) return invalid("redirect_uris is required");
  if (uris.length > 10) return invalid("redirect_uris must not hold more than 10 URIs");
  for (const uri of uris) {
    if (uri.length > 2048) return invalid("redirect URI is too long");
    const problem = redirectUriProblem(uri);
    if (problem !== null) return invalid(`invalid redirect_uri '${uri}': ${problem}`);
  }
  return ok([...new Set(uris)]);
}

export function checkGrantTypes(
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
export function checkExchangeFields(
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
export function checkGrantFit(
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
export async function checkScope(
  deps: Pick<OAuthServerDeps, "store">,
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
export function typeAndMethod(
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

/** The client's name and its URIs, as sent (empty: none). */
export function checkTexts(fields: Pick<ClientFields, "name" | "uri" | "logoUri">): Result<void> {
  for (const [field, value, max, url] of [
    ["client_name", fields.name, 1024, false],
    ["client_uri", fields.uri, 2048, true],
    ["logo_uri", fields.logoUri, 2048, true],
  ] as const) {
    const checked = checkText(field, value, max, url);
    if (!checked.ok) return checked;
  }
  return ok(undefined);
}
