import type { DpopBinding } from "../dpop/index.js";
import { type FailureName, failures } from "../failures.js";
import {
  type AuthError,
  constantTimeEqual,
  err,
  ok,
  type Result,
  transactionRollingBackOn,
} from "../kernel/index.js";
import { verifierMatches } from "../pkce/index.js";
import { defineGrant, refreshSession, type StartedSession, signSession } from "../sessions/index.js";
import { clientIdOf, type OAuthClient } from "./client.js";
import { startClientSession } from "./client-session.js";
import type { OAuthServerDeps, OAuthServerRepositories } from "./deps.js";
import { idTokenClaims } from "./id-token.js";
import { issuerOf } from "./query.js";

/** The token response of `POST /oauth/token` (OAuth 2.1 §3.2.3), before JSON. */
export interface OAuthTokens {
  readonly accessToken: string;
  readonly expiresIn: number;
  /**
   * None for a token exchange (RFC 8693 §2.2.1: the exchanged token is not refreshed), nor for
   * `client_credentials`, nor for a code flow without `offline_access` when that is required.
   */
  readonly refreshToken?: string;
  readonly scope: string;
  readonly idToken?: string;
  /** RFC 8693's `issued_token_type`, for a token exchange. */
  readonly issuedTokenType?: string;
  /**
   * The DPoP key thumbprint the access token is bound to (its `cnf.jkt`): answered as `token_type:
   * DPoP`. The endpoint checks that it is the request's binding, whatever the grant.
   */
  readonly boundTo?: string;
}

/**
 * What every grant of `POST /oauth/token` receives beside its own fields, chosen before it runs: the
 * key the request proved (RFC 9449 §5), to bind the session it starts or refreshes and every access
 * token it signs; null for a request without a DPoP proof.
 */
export interface TokenRequestBinding {
  readonly dpop: DpopBinding | null;
}

/**
 * The tokens of a grant that refreshes a session, or starts one a device polled for: always with a
 * refresh token (a code exchange may withhold it without `offline_access`, see exchangeAuthorizationCode).
 */
export type SessionOAuthTokens = OAuthTokens & { readonly refreshToken: string };

type Deps = Pick<
  OAuthServerDeps,
  "store" | "clock" | "random" | "tokens" | "signer" | "idTokens" | "settings" | "hooks"
>;

export interface CodeExchange extends TokenRequestBinding {
  readonly client: OAuthClient;
  readonly code: string;
  readonly codeVerifier?: string | undefined;
  readonly redirectUri?: string | undefined;
  readonly resource?: string | undefined;
}

const CODE_ORIGIN = {
  method: "oauth_provider/authorization_code",
  providerType: "oauth_provider_authorization_code",
};

/**
 * A second use of a spent code (RFC 6749 §4.1.2, OAuth 2.1 §4.1.3): the code leaked, or its client
 * cannot keep it, and whoever got the first tokens may not be the client. The session the first
 * exchange started ends — its refresh tokens at once, its access tokens at their next check — and the
 * use is refused. Committed although refused: the caller returns the failure, it does not throw it.
 */
async function endReplayedExchange(
  repos: OAuthServerRepositories,
  replayed: { readonly userId: string; readonly clientId: string; readonly sessionId: string },
  now: Date,
): Promise<Result<never>> {
  await repos.sessions.delete(replayed.sessionId);
  const user = await repos.users.findById(replayed.userId);
  await repos.audit.record({
    action: "token_revoked",
    actorId: replayed.userId,
    actorUsername: user?.phone || user?.email || "",
    traits: { client_id: replayed.clientId, action: "authorization_code_reused" },
    at: now,
  });
  return err(failures.codeInvalid());
}

/**
 * `grant_type=authorization_code` (OAuth 2.1 §4.1.3): exchanges an approved request's code and its
 * PKCE verifier for a session bound to the client, once. The request is locked and its code spent in
 * the transaction that starts the session, so of concurrent exchanges of one code exactly one gets
 * tokens, and each other one, a second use, ends the session it got (`endReplayedExchange`). A wrong
 * verifier, redirect URI or resource leaves the code unspent (only its holder knows them). A code
 * whose grant the user revoked after approving it is refused.
 */
export async function exchangeAuthorizationCode(
  deps: Deps,
  input: CodeExchange,
): Promise<Result<OAuthTokens>> {
  if (!input.code) return err(failures.tokenCodeMissing());
  const now = deps.clock.now();
  const { client } = input;
  const wantsIdToken = { value: false };
  const started = await transactionRollingBackOn(
    deps.store,
    async (repos): Promise<Result<{ started: StartedSession; nonce: string | null; authTime: Date }>> => {
      const authorization = await repos.oauthAuthorizations.lockApprovedByCode(deps.tokens.hash(input.code));
      if (authorization === null || authorization.userId === null) return err(failures.codeInvalid());
      const { userId, clientId, sessionId } = authorization;
      if (sessionId) return endReplayedExchange(repos, { userId, clientId, sessionId }, now);
      if (authorization.expiresAt.getTime() <= now.getTime()) return err(failures.codeExpired());
      if (authorization.clientId !== client.id) return err(failures.codeOfAnotherClient());
      // Approval records the consent before the code exists: none now means the user revoked the
      // grant since, and a code still in flight must not start a session the revocation would have ended.
      if ((await repos.oauthConsents.findActive(authorization.userId, client.id)) === null)
        return err(failures.codeInvalid());
      if (input.resource && input.resource !== authorization.resource)
        return err(failures.codeResourceMismatch());
      if (input.redirectUri && input.redirectUri !== authorization.redirectUri)
        return err(failures.codeRedirectUriMismatch());
      // The client's redirect URIs as they are now: a client metadata document's host (or an admin)
      // that withdrew the URI the code went to since the request no longer vouches for it.
      if (!client.redirectUris.includes(authorization.redirectUri))
        return err(failures.codeRedirectUriMismatch());
      if (!input.codeVerifier) return err(failures.codeVerifierMissing());
      const { codeChallenge, codeChallengeMethod } = authorization;
      if (!verifierMatches(deps.tokens, codeChallenge, codeChallengeMethod, input.codeVerifier))
        return err(failures.codeVerifierWrong());
      // RFC 9449 §10: a code bound to a key is spent only by a proof of that key, so a stolen code
      // is no use without the key; a refusal leaves it for its holder.
      if (authorization.dpopJkt) {
        if (input.dpop === null) return err(failures.codeDpopProofMissing());
        if (!constantTimeEqual(input.dpop.jkt, authorization.dpopJkt))
          return err(failures.codeDpopKeyMismatch());
      }
      wantsIdToken.value = authorization.scope.split(" ").includes("openid");
      // Refused before anything is spent: the operator's configuration, not the client, is at fault.
      if (wantsIdToken.value && !deps.idTokens.available) throw failures.idTokenKeyMissing();
      const spentOn = deps.random.uuid();
      if (!(await repos.oauthAuthorizations.spend(authorization.id, spentOn)))
        return err(failures.codeInvalid());
      const session = await startClientSession(repos, deps, {
        client,
        authorization,
        userId: authorization.userId,
        sessionId: spentOn,
        origin: CODE_ORIGIN,
        dpop: input.dpop,
        now,
      });
      if (!session.ok) return session;
      return ok({
        started: session.value,
        nonce: authorization.nonce,
        authTime: authorization.authTime ?? now,
      });
    },
  );
  if (!started.ok) return started;
  const { session, user } = started.value.started;
  // The custom access token hook runs after the transaction committed (see signSession).
  const signed = await signSession(deps, started.value.started);
  if (!signed.ok) return signed;
  const scope = session.scopes ?? "";
  const idToken = wantsIdToken.value
    ? await deps.idTokens.sign(
        idTokenClaims({
          user,
          clientId: clientIdOf(client),
          sessionId: session.id,
          scope,
          nonce: started.value.nonce,
          authTime: started.value.authTime,
          session,
          now,
          issuer: issuerOf(deps.settings),
        }),
      )
    : undefined;
  // OAuth 2.1 leaves it to the server; OpenID Connect Core §11 ties refresh tokens to offline_access.
  // The session exists either way (userinfo and revocation read it); only its refresh token is withheld.
  const refreshable =
    !deps.settings.oauthServer.refreshTokenNeedsOfflineAccess || scope.split(" ").includes("offline_access");
  return ok({
    accessToken: signed.value.accessToken,
    expiresIn: signed.value.expiresIn,
    ...(refreshable ? { refreshToken: signed.value.refreshToken } : {}),
    scope,
    ...(idToken ? { idToken } : {}),
    ...(session.dpopJkt ? { boundTo: session.dpopJkt } : {}),
  });
}

/**
 * How a refused rotation is told to the client, in OAuth's words (RFC 6749 §5.2); any other refusal
 * but a fault is an invalid refresh token.
 */
const CLIENT_REFRESH_REFUSALS: Partial<Record<FailureName, () => AuthError>> = {
  oauthSessionNeedsItsClient: failures.refreshOfAnotherClient,
  clientNotAllowedForSession: failures.refreshOfFirstPartySession,
  userBannedAtTokenGrant: failures.codeUserBanned,
  refreshDpopKeyMismatch: failures.refreshDpopKeyMismatch,
};

/**
 * `grant_type=refresh_token` at `POST /oauth/token`: the usual rotation, for a session issued to this
 * very client (the store refuses any other, and a first-party session). A session bound to a DPoP key
 * is refreshed with a proof of that key only (refused before anything is written); a proof on an
 * unbound session's refresh binds the access token it gets. Failures are OAuth's words.
 */
export async function refreshForClient(
  deps: Deps,
  input: TokenRequestBinding & { readonly client: OAuthClient; readonly refreshToken: string | undefined },
): Promise<Result<SessionOAuthTokens>> {
  if (!input.refreshToken) return err(failures.tokenRefreshTokenMissing());
  const refreshed = await refreshSession(deps, {
    refreshToken: input.refreshToken,
    clientId: input.client.id,
    dpopJkt: input.dpop?.jkt,
  });
  if (!refreshed.ok) {
    if (refreshed.error.code === "unexpected_failure") return refreshed;
    const refusal = CLIENT_REFRESH_REFUSALS[refreshed.error.failure as FailureName];
    return err(refusal ? refusal() : failures.refreshTokenInvalid());
  }
  const { session } = refreshed.value;
  return ok({
    accessToken: refreshed.value.accessToken,
    expiresIn: refreshed.value.expiresIn,
    refreshToken: refreshed.value.refreshToken,
    scope: session.scopes ?? "",
    ...(session.dpopJkt ? { boundTo: session.dpopJkt } : {}),
  });
}

/**
 * The grant types of `POST /oauth/token`, defined beside their use cases as `POST /token`'s are; the
 * app offers them at that endpoint in the one registry of both, and looks the requested one up once
 * the client may use it.
 */
export const authorizationCodeGrant = defineGrant("authorization_code", exchangeAuthorizationCode);
export const clientRefreshTokenGrant = defineGrant("refresh_token", refreshForClient);
