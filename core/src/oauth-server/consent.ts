import type { User } from "../accounts/index.js";
import { failures } from "../failures.js";
import { err, ok, type Result } from "../kernel/index.js";
import {
  type ApprovalAuthentication,
  type OAuthAuthorization,
  type OAuthConsent,
  scopesCovered,
  scopesOf,
} from "./authorization.js";
import type { OAuthClient } from "./client.js";
import type { OAuthServerDeps, OAuthServerRepositories } from "./deps.js";
import { issuerOf, withQuery } from "./query.js";
import { knownScopes } from "./scopes.js";

type Deps = Pick<OAuthServerDeps, "store" | "clock" | "random" | "tokens" | "settings">;

/** What the consent page shows: the request, its client and the user it is bound to. */
export interface AuthorizationDetails {
  readonly kind: "details";
  readonly authorization: OAuthAuthorization;
  readonly client: OAuthClient;
  readonly user: User;
  /** Each scope asked for, with its custom scope's description (null for OpenID Connect's). */
  readonly scopes: readonly { readonly scope: string; readonly description: string | null }[];
}

/** Who decides: the user, and the session they are signed in with (its level goes into the code). */
export interface SignedInUser {
  readonly userId: string;
  /** The caller's session; without one, the code's session starts at aal1. */
  readonly sessionId?: string | null | undefined;
}

/** Where the browser goes next: the client's redirect URI with the code, or with the refusal. */
export interface ConsentRedirect {
  readonly kind: "redirect";
  readonly redirectUrl: string;
}

/**
 * The pending request `authorizationId` for `userId`, row-locked: not found when absent, held by a
 * concurrent call, bound to another user, or (committed with the caller's transaction) just expired.
 */
async function pendingFor(
  repos: OAuthServerRepositories,
  authorizationId: string,
  userId: string,
  now: Date,
  bind: boolean,
): Promise<Result<{ authorization: OAuthAuthorization; client: OAuthClient; user: User }>> {
  const found = await repos.oauthAuthorizations.lockByAuthorizationId(authorizationId);
  if (found === null) return err(failures.authorizationNotFound());
  if (found.expiresAt.getTime() <= now.getTime()) {
    if (found.status === "pending") await repos.oauthAuthorizations.update({ ...found, status: "expired" });
    return err(failures.authorizationExpired());
  }
  if (found.userId !== null && found.userId !== userId) return err(failures.authorizationNotFound());
  if (found.userId === null && !bind) return err(failures.authorizationNotFound());
  if (found.status !== "pending") return err(failures.authorizationNotPending());
  const client = await repos.oauthClients.find(found.clientId);
  const user = await repos.users.findById(userId);
  if (client === null || user === null) return err(failures.authorizationNotFound());
  return ok({ authorization: { ...found, userId }, client, user });
}

/**
 * The level and methods of the session the user consents from, which the code's session inherits:
 * read from the store (not from the caller's token), and only a session of this very user counts.
 */
async function authenticationOf(
  repos: OAuthServerRepositories,
  sessionId: string | null | undefined,
  userId: string,
): Promise<ApprovalAuthentication | null> {
  if (!sessionId) return null;
  const session = await repos.sessions.find(sessionId);
  if (session === null || session.userId !== userId) return null;
  return { aal: session.aal, amr: session.amr };
}

/**
 * Approves the request: a single-use code (only its hash is stored) and the user's consent recorded,
 * with how the user proved who they are in `sessionId` (the session they consent from).
 */
async function approve(
  deps: Deps,
  repos: OAuthServerRepositories,
  authorization: OAuthAuthorization,
  user: User,
  now: Date,
  sessionId: string | null | undefined,
): Promise<ConsentRedirect> {
  // A device's request issues no code: the device polls for its tokens, and the browser is told to
  // go back to it (its "redirect URI" is authsvc's own verification page).
  const code = authorization.device ? null : deps.tokens.generate();
  await repos.oauthAuthorizations.update({
    ...authorization,
    status: "approved",
    codeHash: code === null ? null : deps.tokens.hash(code),
    approvedAt: now,
    authTime: user.lastSignInAt ?? now,
    authentication: await authenticationOf(repos, sessionId, user.id),
  });
  await repos.oauthConsents.approve({
    id: deps.random.uuid(),
    userId: user.id,
    clientId: authorization.clientId,
    scopes: authorization.scope,
    resources: authorization.resource === null ? [] : [authorization.resource],
    grantedAt: now,
    revokedAt: null,
  });
  if (code === null) return deviceRedirect(authorization, "approved");
  const params = {
    code,
    ...(authorization.state ? { state: authorization.state } : {}),
    iss: issuerOf(deps.settings),
  };
  return { kind: "redirect", redirectUrl: withQuery(authorization.redirectUri, params) };
}

/** Where the browser goes once a device's request is decided: the verification page, saying how. */
const deviceRedirect = (
  authorization: OAuthAuthorization,
  result: "approved" | "denied",
): ConsentRedirect => ({
  kind: "redirect",
  redirectUrl: withQuery(authorization.redirectUri, { result }),
});

/**
 * Whether the user's earlier consent approves the request without asking: every scope asked, and the
 * resource named, if any. The resource server accepts the client's tokens, so a consent given for one
 * resource (or none) is no consent for another.
 */
function consentCovers(authorization: OAuthAuthorization, consent: OAuthConsent | null): boolean {
  if (consent === null || !scopesCovered(authorization.scope, consent.scopes)) return false;
  return authorization.resource === null || consent.resources.includes(authorization.resource);
}

/**
 * `GET /oauth/authorizations/{id}`: binds a pending request to the signed-in user and answers what
 * the consent page shows; when the user's earlier consent to the client covers every scope asked and
 * the resource named, approves at once and answers the redirect instead.
 */
export async function authorizationDetails(
  deps: Deps,
  input: SignedInUser & { readonly authorizationId: string },
): Promise<Result<AuthorizationDetails | ConsentRedirect>> {
  const now = deps.clock.now();
  return deps.store.transaction(async (repos) => {
    const pending = await pendingFor(repos, input.authorizationId, input.userId, now, true);
    if (!pending.ok) return pending;
    const { authorization, client, user } = pending.value;
    const consent = await repos.oauthConsents.findActive(user.id, client.id);
    // A device's request is always shown: its user code may have been handed to the user by someone
    // else (RFC 8628 §5.4), and an earlier consent must not sign that someone's device in unseen.
    if (!authorization.device && consentCovers(authorization, consent))
      return ok(await approve(deps, repos, authorization, user, now, input.sessionId));
    await repos.oauthAuthorizations.update(authorization);
    const asked = scopesOf(authorization.scope);
    const { custom } = await knownScopes({ store: repos }, asked);
    const scopes = asked.map((scope) => ({ scope, description: custom.get(scope)?.description ?? null }));
    return ok({ kind: "details" as const, authorization, client, user, scopes });
  });
}

/** `POST /oauth/authorizations/{id}/consent`: the user's answer to a request bound to them. */
export async function decideConsent(
  deps: Deps,
  input: SignedInUser & { readonly authorizationId: string; readonly action: string },
): Promise<Result<ConsentRedirect>> {
  if (input.action !== "approve" && input.action !== "deny") return err(failures.consentActionInvalid());
  const now = deps.clock.now();
  return deps.store.transaction(async (repos) => {
    const pending = await pendingFor(repos, input.authorizationId, input.userId, now, false);
    if (!pending.ok) return pending;
    const { authorization, user } = pending.value;
    if (input.action === "approve")
      return ok(await approve(deps, repos, authorization, user, now, input.sessionId));
    await repos.oauthAuthorizations.update({ ...authorization, status: "denied" });
    if (authorization.device) return ok(deviceRedirect(authorization, "denied"));
    const params = {
      error: "access_denied",
      error_description: "User denied the request",
      ...(authorization.state ? { state: authorization.state } : {}),
      iss: issuerOf(deps.settings),
    };
    return ok({ kind: "redirect" as const, redirectUrl: withQuery(authorization.redirectUri, params) });
  });
}
