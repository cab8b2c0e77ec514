import { failures } from "../failures.js";
import { err, isUuid, ok, type Result } from "../kernel/index.js";
import type { CodeChallengeMethod } from "../pkce/index.js";
import { OAUTH_SCOPES, type OAuthAuthorization, scopesOf } from "./authorization.js";
import type { OAuthServerDeps } from "./deps.js";
import { withQuery } from "./query.js";

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
}

type Deps = Pick<OAuthServerDeps, "store" | "clock" | "random" | "settings">;

const CHALLENGE = /^[A-Za-z0-9._~-]{43,128}$/;

/** Why the request cannot go on once its redirect URI is trusted, or what it asks for. */
function readRequest(
  deps: Pick<Deps, "settings">,
  q: AuthorizeRequest,
): { problem: string } | { scope: string; method: CodeChallengeMethod; challenge: string } {
  if ((q.responseType ?? "code") !== "code") return { problem: "response_type must be 'code'" };
  const scopes = scopesOf(q.scope || deps.settings.oauthServer.defaultScope);
  const unknown = scopes.find((s) => !(OAUTH_SCOPES as readonly string[]).includes(s));
  if (unknown !== undefined) return { problem: `unsupported scope: ${unknown}` };
  if (scopes.length === 0) return { problem: "scope must not be empty" };
  if (q.resource) {
    if (!/^[a-zA-Z][a-zA-Z0-9+.-]*:\/\/[^\s]+$/.test(q.resource) || q.resource.length > 2048)
      return { problem: "resource must be an absolute URI" };
    if (q.resource.includes("#")) return { problem: "resource must not contain a fragment" };
    if (q.resource.includes("?")) return { problem: "resource must not contain a query" };
  }
  if (!q.codeChallenge || !q.codeChallengeMethod)
    return { problem: "PKCE is required: code_challenge and code_challenge_method" };
  const method = q.codeChallengeMethod.toLowerCase();
  if (method !== "s256" && method !== "plain")
    return { problem: "code_challenge_method must be 'S256' or 'plain'" };
  if (!CHALLENGE.test(q.codeChallenge))
    return { problem: "code_challenge must be 43 to 128 characters of [A-Za-z0-9._~-]" };
  if ((q.state?.length ?? 0) > 4096) return { problem: "state is too long" };
  if ((q.nonce?.length ?? 0) > 255) return { problem: "nonce is too long" };
  return { scope: scopes.join(" "), method, challenge: q.codeChallenge };
}

/** Where the consent page is: the configured path on SITE_URL, else the built-in page, else none. */
function consentPage(deps: Pick<Deps, "settings">): string | null {
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
 * answered to the browser, never redirected: the URI is not trusted yet), then the rest of the request
 * (an error now is redirected to the client with `error=invalid_request` and the `state`), and stores
 * a pending request the consent page is sent to by its id. PKCE is mandatory.
 */
export async function startAuthorization(
  deps: Deps,
  q: AuthorizeRequest,
): Promise<Result<{ readonly location: string }>> {
  if (!q.clientId) return err(failures.authorizeClientIdMissing());
  if (!q.redirectUri) return err(failures.authorizeRedirectUriMissing());
  const client = isUuid(q.clientId) ? await deps.store.oauthClients.find(q.clientId) : null;
  if (client === null) return err(failures.authorizeClientNotFound());
  if (!client.redirectUris.includes(q.redirectUri)) return err(failures.authorizeRedirectUriUnregistered());
  const back = (error: string, description: string) =>
    ok({
      location: withQuery(q.redirectUri as string, {
        error,
        error_description: description,
        ...(q.state ? { state: q.state } : {}),
      }),
    });
  const read = readRequest(deps, q);
  if ("problem" in read) return back("invalid_request", read.problem);
  if (!client.grantTypes.includes("authorization_code"))
    return back("unauthorized_client", "client may not use the authorization code grant");
  const page = consentPage(deps);
  if (page === null) return back("server_error", failures.authorizationPathMissing().message);
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
  };
  await deps.store.oauthAuthorizations.insert(authorization);
  return ok({ location: withQuery(page, { authorization_id: authorization.authorizationId }) });
}
