import type { UserWithIdentities } from "../accounts/index.js";
import { isBanned } from "../accounts/index.js";
import { failures } from "../failures.js";
import { type AuthError, err, isUuid, NIL_UUID, ok, type Result } from "../kernel/index.js";
import type { SessionsDeps } from "./deps.js";
import { sessionEnd } from "./session-limits.js";
import { type BearerKind, tokenKind } from "./token-kind.js";

export interface Authenticated {
  /** The caller, with identities: what `GET /user` answers, read in the same round trip. */
  readonly user: UserWithIdentities;
  readonly claims: Readonly<Record<string, unknown>>;
  /** The `session_id` claim, or null when the token names no session (or the nil UUID). */
  readonly sessionId: string | null;
}

/** Verifies the bearer token (undefined when the request carried none). */
async function verifiedClaims(
  deps: Pick<SessionsDeps, "signer">,
  bearerToken: string | undefined,
): Promise<Result<Readonly<Record<string, unknown>>>> {
  if (bearerToken === undefined || bearerToken === "") return err(failures.noAuthorization());
  const claims = await deps.signer.verify(bearerToken);
  if (claims === null) {
    return err(failures.jwtUnverifiable());
  }
  return ok(claims);
}

/** The session id a token names: null when absent or nil; an error when it is not a UUID. */
function sessionIdClaim(claims: Readonly<Record<string, unknown>>): Result<string | null> {
  const value = claims.session_id;
  if (value === undefined || value === null || value === "" || value === NIL_UUID) return ok(null);
  if (typeof value !== "string" || !isUuid(value)) {
    return err(failures.jwtSessionIdNotUuid());
  }
  return ok(value);
}

/** The audience a user request must carry, and how a mismatch is answered (per endpoint). */
export interface RequestAudience {
  /** The request's audience: the `X-JWT-AUD` header, else the configured `JWT_AUD`. */
  readonly expected: string;
  /** `validation_failed` (400) on `GET /user`, as the reference; `unexpected_audience` (403) elsewhere. */
  readonly refusal?: "unexpected_audience" | "validation_failed";
}

/** The token's audience: `aud` as a string, or the first of an array (the reference's `aud[0]`). */
function tokenAudience(claims: Readonly<Record<string, unknown>>): unknown {
  return Array.isArray(claims.aud) ? claims.aud[0] : claims.aud;
}

/**
 * Authenticates a user request from its bearer token, which the HTTP layer reads from the
 * `Authorization` header (reference `requireAuthentication`): the token must verify, be of a kind the
 * endpoint `accepts` (default: a first-party access token; an ID token never), name an existing user
 * by `sub`, and, when it names a session, that session must still exist — so a logged-out session's
 * access tokens stop working here although they are cryptographically valid until they expire.
 * Banned users are refused. With `audience`, a token minted for another audience (signed with the
 * same secret by a sibling application) is refused too. A client's token (authsvc as an OAuth server)
 * is one only where `client` is accepted: the user granted the client some scopes, never the account
 * itself (its password, factors, identities, sessions). It is recognised by its `client_id` claim and,
 * whatever its claims, by its session's client.
 */
export async function authenticate(
  deps: Pick<SessionsDeps, "signer" | "store" | "clock">,
  input: {
    bearerToken: string | undefined;
    audience?: RequestAudience;
    accepts?: readonly BearerKind[];
  },
): Promise<Result<Authenticated>> {
  const accepts = input.accepts ?? ["user"];
  const verified = await verifiedClaims(deps, input.bearerToken);
  if (!verified.ok) return verified;
  const claims = verified.value;
  const kind = tokenKind(claims);
  if (kind === "id_token") return err(failures.idTokenNotBearer());
  // No user is behind a client's own token: refused before its subject is looked up as one.
  if (kind === "machine" && !accepts.includes("machine")) return err(failures.machineTokenRefused());
  const sub = claims.sub;
  if (typeof sub !== "string" || sub === "") {
    return err(failures.jwtSubMissing());
  }
  if (!isUuid(sub)) return err(failures.jwtSubNotUuid());
  const sessionId = sessionIdClaim(claims);
  // The user and the session in one step of the store (one statement on Postgres), on every
  // authenticated request. The order of the answers below stays the reference's (user, then session).
  const { user, session } = await deps.store.sessions.findUserAndSession(
    sub,
    sessionId.ok ? sessionId.value : null,
  );
  if (user === null) {
    return err(failures.jwtUserMissing());
  }
  if (!sessionId.ok) return sessionId;
  if (sessionId.value !== null && session === null) {
    return err(failures.jwtSessionMissing());
  }
  const ofClient = kind === "client" || session?.oauthClientId !== undefined;
  if (ofClient && !accepts.includes("client")) return err(failures.oauthClientTokenRefused());
  if (!ofClient && !accepts.includes("user")) return err(failures.firstPartyTokenRefused());
  if (isBanned(user, deps.clock.now())) return err(failures.userBanned());
  const { audience } = input;
  if (audience !== undefined && tokenAudience(claims) !== audience.expected) {
    return err(
      audience.refusal === "validation_failed" ? failures.audienceMismatch() : failures.unexpectedAudience(),
    );
  }
  return ok({ user, claims, sessionId: sessionId.value });
}

/**
 * Authenticates an admin request: a valid API key or first-party user token whose `role` claim is one
 * of the configured admin roles. No `sub` is needed, so the project's `service_role` key works as is.
 */
export async function authenticateAdmin(
  deps: Pick<SessionsDeps, "signer" | "settings" | "store" | "clock">,
  input: { bearerToken: string | undefined },
): Promise<Result<{ claims: Readonly<Record<string, unknown>>; role: string }, AuthError>> {
  const verified = await verifiedClaims(deps, input.bearerToken);
  if (!verified.ok) return verified;
  const claims = verified.value;
  // Only an API key or a first-party user's token is an admin credential: a client acts for a user
  // within the scopes granted to it, and an ID token is no bearer token at all.
  const kind = tokenKind(claims);
  if (kind === "id_token") return err(failures.idTokenNotBearer());
  if (kind === "client") return err(failures.clientTokenNotAdmin());
  // A client's own token is never an admin credential, whatever role OAUTH_SERVER_CLIENT_CREDENTIALS_ROLE gives it.
  if (kind === "machine") return err(failures.machineTokenNotAdmin());
  const role = claims.role;
  if (typeof role !== "string" || !deps.settings.jwt.adminRoles.includes(role)) {
    return err(failures.notAdmin());
  }
  // A user's token that carries an admin role (an admin may set `role`) is only as good as the user
  // and the session behind it: logged out, banned or deleted means no longer admin. API keys carry
  // neither `sub` nor `session_id` and are unaffected.
  const sessionId = sessionIdClaim(claims);
  if (!sessionId.ok) return sessionId;
  if (sessionId.value !== null) {
    const session = await deps.store.sessions.find(sessionId.value);
    if (session === null) return err(failures.jwtSessionMissing());
    // A client's session, whatever the claims say (a hook may have reshaped them).
    if (session.oauthClientId !== undefined) return err(failures.clientTokenNotAdmin());
    // As the reference: an admin user's token is refused once its session is over (SESSIONS_*), although
    // user routes still accept such tokens until they expire.
    if (sessionEnd(session, deps.settings.sessions, deps.clock.now()) !== null) {
      return err(failures.adminSessionExpired());
    }
  }
  if (typeof claims.sub === "string" && claims.sub !== "") {
    const user = isUuid(claims.sub) ? await deps.store.users.findById(claims.sub) : null;
    if (user === null || isBanned(user, deps.clock.now())) {
      return err(failures.notAdmin());
    }
  }
  return ok({ claims, role });
}
