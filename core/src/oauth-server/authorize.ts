import { failures } from "../failures.js";
import { type AuthError, err, ok, type Result } from "../kernel/index.js";
import type { CodeChallengeMethod } from "../pkce/index.js";
import { type OAuthAuthorization, scopesOf } from "./authorization.js";
import { redirectUriProblem } from "./client.js";
import { resolveClient } from "./client-metadata-document.js";
import type { OAuthServerDeps } from "./deps.js";
import { issuerOf, withQuery } from "./query.js";
import { knownScopes, resourceAllowed, resourceProblem, scopeProblem } from "./scopes.js";

export { resourceAllowed } from "./scopes.js";

/** The query of `GET /oauth/authorize`, as sent. */
export interface AuthorizeRequest {
  readonly clientId?: string | undefined;
  readonly redirectUri?: string | undefined;
  readonly responseType?: string | undefined;
  readonly scope?: string | undefined;
  readonly state?: string | undefined;
  readonly resource?: string | undefined;
  readonly codeChallenge?: string | undefined;
  readonly codeChallengeMethod?: string | undefined;
  readonly nonce?: string | undefined;
  /** OpenID Connect's `ui_locales`: passed on to the consent page, which speaks the first it has. */
  readonly uiLocales?: string | undefined;
  /** RFC 9126 §4: the reference of a request the client pushed; the request's parameters are its. */
  readonly requestUri?: string | undefined;
  /** RFC 9449 §10: the thumbprint of the DPoP key the code is to be exchanged with a proof of. */
  readonly dpopJkt?: string | undefined;
}

/** The parameters of an authorization request, by their OAuth names (what a pushed request stores). */
export const AUTHORIZE_PARAMETERS = {
  client_id: "clientId",
  redirect_uri: "redirectUri",
  response_type: "responseType",
  scope: "scope",
  state: "state",
  resource: "resource",
  code_challenge: "codeChallenge",
  code_challenge_method: "codeChallengeMethod",
  nonce: "nonce",
  ui_locales: "uiLocales",
  dpop_jkt: "dpopJkt",
} as const satisfies Record<string, keyof AuthorizeRequest>;

type Deps = Pick<OAuthServerDeps, "store" | "clock" | "random" | "settings" | "tokens" | "clientDocuments">;

/** RFC 9126 §2.2: the prefix of every `request_uri` this server hands out. */
export const REQUEST_URI_PREFIX = "urn:ietf:params:oauth:request_uri:";

const CHALLENGE = /^[A-Za-z0-9._~-]{43,128}$/;
/** A JWK SHA-256 thumbprint (RFC 7638), base64url without padding: 43 characters. */
const THUMBPRINT = /^[A-Za-z0-9_-]{43}$/;

/**
 * The most a request may hold of what it is stored with, as the reference's columns: a request is
 * stored for anyone who asks, unauthenticated, so each field is bounded before anything else is read.
 */
const MAX = { state: 4096, scope: 4096, resource: 2048, nonce: 255 } as const;

/** Why the request cannot go on once its redirect URI is trusted, or what it asks for. */
export function readRequest(
  deps: Pick<Deps, "settings">,
  q: AuthorizeRequest,
): { problem: string } | { scope: string; method: CodeChallengeMethod; challenge: string } {
  if ((q.state?.length ?? 0) > MAX.state) return { problem: "state is too long" };
  if ((q.scope?.length ?? 0) > MAX.scope) return { problem: "scope is too long" };
  if ((q.nonce?.length ?? 0) > MAX.nonce) return { problem: "nonce is too long" };
  if ((q.responseType ?? "code") !== "code") return { problem: "response_type must be 'code'" };
  const scopes = readScope(deps, q);
  if ("problem" in scopes) return scopes;
  if (!q.codeChallenge || !q.codeChallengeMethod)
    return { problem: "PKCE is required: code_challenge and code_challenge_method" };
  // `plain` sends the verifier itself through the browser: S256 only (ASVS 5.0 10.4.6, RFC 9700 §2.1.1).
  const method = q.codeChallengeMethod.toLowerCase();
  if (method !== "s256") return { problem: "code_challenge_method must be 'S256'" };
  if (!CHALLENGE.test(q.codeChallenge))
    return { problem: "code_challenge must be 43 to 128 characters of [A-Za-z0-9._~-]" };
  if (q.dpopJkt !== undefined && !THUMBPRINT.test(q.dpopJkt))
    return { problem: "dpop_jkt must be a JWK SHA-256 thumbprint (43 base64url characters)" };
  return { scope: scopes.scope, method, challenge: q.codeChallenge };
}

/**
 * The scopes and resource (RFC 8707) of a request, read alike wherever a request starts
 * (`/oauth/authorize`, `/oauth/device_authorization`): the scopes, or why they or the resource cannot be.
 */
export function readScope(
  deps: Pick<Deps, "settings">,
  q: { readonly scope?: string | undefined; readonly resource?: string | undefined },
): { problem: string } | { scope: string } {
  if ((q.scope?.length ?? 0) > MAX.scope) return { problem: "scope is too long" };
  const scopes = scopesOf(q.scope || deps.settings.oauthServer.defaultScope);
  if (scopes.length === 0) return { problem: "scope must not be empty" };
  if (q.resource) {
    if (q.resource.length > MAX.resource) return { problem: "resource must be an absolute URI" };
    const problem = resourceProblem(q.resource);
    if (problem !== null) return { problem };
  }
  return { scope: scopes.join(" ") };
}

/** Where the consent page is: the configured path on SITE_URL, else the built-in page, else none. */
export function consentPage(deps: Pick<Deps, "settings">): string | null {
  const { siteUrl, apiExternalUrl, oauthServer } = deps.settings;
  if (oauthServer.authorizationPath) {
    const path = oauthServer.authorizationPath.startsWith("/")
      ? oauthServer.authorizationPath
      : `/${oauthServer.authorizationPath}`;
    return `${siteUrl.replace(/\/+$/, "")}${path}`;
  }
  if (oauthServer.builtInConsentPage) return `${apiExternalUrl.replace(/\/+$/, "")}/oauth/consent`;
  return null;
}

/**
 * `GET /oauth/authorize` (OAuth 2.1 §4.1.1): checks the client and its redirect URI (an error here is
 * answered to the browser, never redirected: the URI is not trusted yet), then the rest of the request,
 * and stores a pending request the consent page is sent to by its id. PKCE (S256) is mandatory.
 *
 * An error past the redirect URI is redirected to the client (`error=…` and the `state`) only when an
 * admin created it. Anyone may register a client dynamically, with any https URI: redirecting its
 * errors at once would make this server an open redirector (RFC 9700 §4.11.2), so they are failures
 * the browser is answered, and such a client's URI is reached only once the user has decided on the
 * consent page.
 */
export async function startAuthorization(
  deps: Deps,
  query: AuthorizeRequest,
): Promise<Result<{ readonly location: string }>> {
  if (!query.clientId) return err(failures.authorizeClientIdMissing());
  // A client metadata document that cannot be had is answered here, as an unknown client is.
  const resolved = await resolveClient(deps, query.clientId, { firstUse: true });
  if (!resolved.ok) return resolved;
  const client = resolved.value;
  let q = query;
  if (query.requestUri !== undefined) {
    // RFC 9126 §4: the pushed parameters are the request; the query's others are ignored.
    if (client === null) return err(failures.authorizeClientNotFound());
    const pushed = await takePushedRequest(deps, client.id, query.requestUri);
    if (pushed === null) return err(failures.pushedRequestUriInvalid());
    q = { ...pushed, clientId: client.id, requestUri: query.requestUri };
  }
  if (!q.redirectUri) return err(failures.authorizeRedirectUriMissing());
  if (client === null) return err(failures.authorizeClientNotFound());
  if (!client.redirectUris.includes(q.redirectUri)) return err(failures.authorizeRedirectUriUnregistered());
  // A URI registered before the rules refused it (a backslash, a scheme such as ftp) is not trusted either.
  if (redirectUriProblem(q.redirectUri) !== null) return err(failures.authorizeRedirectUriUnregistered());
  const trusted = client.registrationType === "manual";
  const back = (failure: AuthError) =>
    trusted
      ? ok({
          location: withQuery(q.redirectUri as string, {
            error: failure.code,
            error_description: failure.message,
            ...(q.state ? { state: q.state } : {}),
            iss: issuerOf(deps.settings),
          }),
        })
      : err(failure);
  const mustPush =
    deps.settings.oauthServer.requirePushedAuthorizationRequests ||
    client.requirePushedAuthorizationRequests === true;
  if (mustPush && q.requestUri === undefined) return back(failures.pushedRequestRequired());
  const read = readRequest(deps, q);
  if ("problem" in read) return back(failures.authorizeRequestInvalid(read.problem));
  if (q.resource && !resourceAllowed(deps, q.resource)) return back(failures.authorizeResourceNotAllowed());
  // OpenID Connect's scopes and the custom ones (a custom one bound to a resource only for it), within
  // the client's allowed scopes when it has a list (RFC 6749 §4.1.2.1's invalid_scope).
  const asked = scopesOf(read.scope);
  const unsupported = scopeProblem(await knownScopes(deps, asked), asked, q.resource || null, client.scope);
  if (unsupported !== null) return back(failures.authorizeScopeInvalid(unsupported));
  if (!client.grantTypes.includes("authorization_code")) return back(failures.authorizeGrantTypeMissing());
  const page = consentPage(deps);
  if (page === null) return back(failures.authorizationPathMissing());
  const now = deps.clock.now();
  const authorization: OAuthAuthorization = {
    id: deps.random.uuid(),
    authorizationId: `${deps.random.uuid()}${deps.random.uuid()}`.replaceAll("-", "").slice(0, 32),
    clientId: client.id,
    userId: null,
    redirectUri: q.redirectUri,
    scope: read.scope,
    state: q.state || null,
    resource: q.resource || null,
    codeChallenge: read.challenge,
    codeChallengeMethod: read.method,
    nonce: q.nonce || null,
    status: "pending",
    codeHash: null,
    createdAt: now,
    expiresAt: new Date(now.getTime() + deps.settings.oauthServer.authorizationTtlSeconds * 1000),
    approvedAt: null,
    authTime: null,
    ...(q.dpopJkt ? { dpopJkt: q.dpopJkt } : {}),
  };
  await deps.store.oauthAuthorizations.insert(authorization);
  const uiLocales: Record<string, string> = /^[A-Za-z0-9 -]{1,100}$/.test(q.uiLocales ?? "")
    ? { ui_locales: q.uiLocales as string }
    : {};
  return ok({
    location: withQuery(page, { authorization_id: authorization.authorizationId, ...uiLocales }),
  });
}

/**
 * The parameters of the request `requestUri` refers to, taken (never to be used again) when the
 * client pushed it and it has not expired; null otherwise.
 */
export async function takePushedRequest(
  deps: Pick<Deps, "store" | "clock" | "tokens">,
  clientId: string,
  requestUri: string,
): Promise<AuthorizeRequest | null> {
  if (!requestUri.startsWith(REQUEST_URI_PREFIX) || requestUri.length > 256) return null;
  const reference = requestUri.slice(REQUEST_URI_PREFIX.length);
  const hash = deps.tokens.hash(reference);
  const taken = await deps.store.oauthPushedRequests.take(hash, clientId, deps.clock.now());
  if (taken === null) return null;
  const q: Record<string, string> = {};
  for (const [name, field] of Object.entries(AUTHORIZE_PARAMETERS)) {
    const value = taken.parameters[name];
    if (value !== undefined) q[field] = value;
  }
  return q as AuthorizeRequest;
}
