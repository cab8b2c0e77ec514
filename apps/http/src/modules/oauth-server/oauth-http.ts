import { type AuthDeps, failures } from "@authsvc/core";
import { type AuthError, isRedirectAllowed, type Result } from "@authsvc/core/kernel";
import {
  type ClientCredentials,
  clientIdOf,
  issuerOf as coreIssuerOf,
  logoutMetadataOf,
  type OAuthClient,
  TOKEN_EXCHANGE_GRANT,
} from "@authsvc/core/oauth-server";
import type { Context, MiddlewareHandler } from "hono";
import type { AppEnv } from "../../http/app-env.js";
import { grantFailure } from "../../http/grants/oauth-errors.js";
import { readJsonObject } from "../../http/middleware/json-body.js";

/** Every OAuth server route but discovery answers `404 feature_disabled` while the server is off. */
export const requireOAuthServer =
  (deps: AuthDeps): MiddlewareHandler<AppEnv> =>
  async (_c, next) => {
    if (!deps.settings.oauthServer.enabled) throw failures.oauthServerDisabled();
    await next();
  };

/** The issuer (`JWT_ISSUER`, else `API_EXTERNAL_URL`; core's, the one of every answer) and, from it, every advertised endpoint. */
export const issuerOf = (deps: AuthDeps): string => coreIssuerOf(deps.settings);
export const endpointUrl = (deps: AuthDeps, path: string) => `${issuerOf(deps).replace(/\/+$/, "")}${path}`;

/**
 * A token-endpoint body: form-encoded (what OAuth clients send, RFC 6749 §4.1.3) or JSON. Only string
 * fields are kept; a repeated form field is refused, as RFC 6749 §3.2 asks.
 */
export async function readTokenBody(c: Context<AppEnv>): Promise<Record<string, string>> {
  const type = c.req.header("content-type") ?? "";
  if (type.includes("application/json")) {
    const json = await readJsonObject(c);
    return Object.fromEntries(
      Object.entries(json).filter((entry): entry is [string, string] => typeof entry[1] === "string"),
    );
  }
  const params = new URLSearchParams(await c.req.text());
  const out: Record<string, string> = {};
  for (const [key, value] of params) {
    if (key in out) throw failures.authorizeRequestInvalid(`parameter '${key}' given more than once`);
    out[key] = value;
  }
  return out;
}

/**
 * The client credentials of a request: `Authorization: Basic` (RFC 6749 §2.3.1: the id and secret are
 * form-urlencoded before base64) wins over `client_id`/`client_secret` in the body.
 */
export function clientCredentials(c: Context<AppEnv>, body: Record<string, string>): ClientCredentials {
  const header = /^basic\s+(\S+)$/i.exec(c.req.header("authorization") ?? "");
  if (header?.[1]) {
    const decoded = Buffer.from(header[1], "base64").toString("utf8");
    const colon = decoded.indexOf(":");
    if (colon === -1) throw failures.clientCredentialsInvalid();
    const part = (s: string) => {
      try {
        return decodeURIComponent(s.replaceAll("+", " "));
      } catch {
        throw failures.clientCredentialsInvalid();
      }
    };
    return {
      basic: true,
      clientId: part(decoded.slice(0, colon)),
      clientSecret: part(decoded.slice(colon + 1)),
      // Beside Basic, an assertion is a second method, which authentication refuses.
      assertionType: body.client_assertion_type,
      assertion: body.client_assertion,
    };
  }
  return {
    basic: false,
    clientId: body.client_id,
    clientSecret: body.client_secret,
    assertionType: body.client_assertion_type,
    assertion: body.client_assertion,
  };
}

/** The answer of a token endpoint's result: the value as JSON, a failure as OAuth error body when it is one. */
export function oauthJson<T>(c: Context<AppEnv>, result: Result<T>, body: (value: T) => object): Response {
  c.header("Cache-Control", "no-store");
  c.header("Pragma", "no-cache");
  if (result.ok) return c.json(body(result.value));
  return oauthFailure(c, result.error);
}

/** A failure of the OAuth server: an OAuth error body when its code is an OAuth word (http/grants/oauth-errors.ts). */
export function oauthFailure(c: Context<AppEnv>, error: AuthError): Response {
  return grantFailure(c, "/oauth/token", error);
}

/**
 * The consent endpoints refuse a browser request from an origin outside the redirect allow-list
 * (SITE_URL, URI_ALLOW_LIST): the consent page must be the project's own. No Origin: not a browser's
 * cross-site request, allowed.
 */
export const checkOrigin =
  (deps: AuthDeps): MiddlewareHandler<AppEnv> =>
  async (c, next) => {
    const origin = c.req.header("origin");
    if (origin !== undefined && origin !== "null") {
      const options = { siteUrl: deps.settings.siteUrl, allowList: deps.settings.uriAllowList };
      const own = new URL(deps.settings.apiExternalUrl).origin;
      if (origin !== own && !isRedirectAllowed(origin, options)) throw failures.requestOriginUnauthorized();
    } else if (origin === "null") {
      throw failures.requestOriginUnauthorized();
    }
    await next();
  };

const iso = (d: Date) => d.toISOString();

/**
 * The client as the consent screen and the user's grants show it. A client metadata document's client
 * (its id a URL) names itself: `client_id_metadata_document` says so, and `host`, its URL's host, is
 * what a consent page shows beside the self-asserted name.
 */
export function clientSummary(client: OAuthClient) {
  return {
    id: clientIdOf(client),
    name: client.name ?? "",
    uri: client.uri ?? "",
    logo_uri: client.logoUri ?? "",
    ...(client.metadataUrl
      ? { client_id_metadata_document: true, host: new URL(client.metadataUrl).host }
      : {}),
  };
}

/** What an admin allowed the client in token exchange: answered once there is anything to say. */
function tokenExchangeJson(client: OAuthClient) {
  const audiences = client.tokenExchangeAudiences ?? [];
  const impersonation = client.tokenExchangeImpersonation ?? false;
  const exchanges = client.grantTypes.includes(TOKEN_EXCHANGE_GRANT);
  if (!exchanges && audiences.length === 0 && !impersonation) return {};
  return { token_exchange_audiences: audiences, token_exchange_impersonation: impersonation };
}

/** A client as registration and the admin API answer it; the secret only when just issued. */
/** A client's logout metadata as answered: the redirect URIs always, the rest when set. */
function logoutJson(client: OAuthClient) {
  const logout = logoutMetadataOf(client);
  return {
    post_logout_redirect_uris: logout.postLogoutRedirectUris,
    ...(logout.backchannelLogoutUri
      ? {
          backchannel_logout_uri: logout.backchannelLogoutUri,
          backchannel_logout_session_required: logout.backchannelLogoutSessionRequired,
        }
      : {}),
  };
}

export function clientJson(client: OAuthClient, secret: string | null = null) {
  return {
    client_id: clientIdOf(client),
    ...(secret ? { client_secret: secret } : {}),
    client_type: client.clientType,
    redirect_uris: client.redirectUris,
    token_endpoint_auth_method: client.authMethod,
    grant_types: client.grantTypes,
    response_types: ["code"],
    ...(client.name ? { client_name: client.name } : {}),
    ...(client.uri ? { client_uri: client.uri } : {}),
    ...(client.logoUri ? { logo_uri: client.logoUri } : {}),
    ...(client.jwks ? { jwks: client.jwks } : {}),
    ...(client.jwksUri ? { jwks_uri: client.jwksUri } : {}),
    ...(client.requirePushedAuthorizationRequests ? { require_pushed_authorization_requests: true } : {}),
    ...logoutJson(client),
    dpop_bound_access_tokens: client.dpopBoundAccessTokens === true,
    ...tokenExchangeJson(client),
    ...(client.scope ? { scope: client.scope } : {}),
    registration_type: client.registrationType,
    ...(client.metadataUrl
      ? {
          client_id_metadata_document: true,
          metadata_expires_at: client.metadataExpiresAt ? iso(client.metadataExpiresAt) : null,
        }
      : {}),
    created_at: iso(client.createdAt),
    updated_at: iso(client.updatedAt),
  };
}
