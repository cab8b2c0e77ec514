import type { UserWithIdentities } from "../accounts/index.js";
import { isBanned } from "../accounts/index.js";
import { type AuthError, authError, err, isUuid, NIL_UUID, ok, type Result } from "../kernel/index.js";
import type { SessionsDeps } from "./deps.js";

const BEARER = /^bearer (\S+)$/i;

export interface Authenticated {
  /** The caller, with identities: what `GET /user` answers, read in the same round trip. */
  readonly user: UserWithIdentities;
  readonly claims: Readonly<Record<string, unknown>>;
  /** The `session_id` claim, or null when the token names no session (or the nil UUID). */
  readonly sessionId: string | null;
}

/** Reads and verifies the bearer token of an `Authorization` header. */
async function verifiedClaims(
  deps: Pick<SessionsDeps, "signer">,
  authorization: string | undefined,
): Promise<Result<Readonly<Record<string, unknown>>>> {
  const match = authorization === undefined ? null : BEARER.exec(authorization);
  if (!match?.[1]) {
    return err(authError(401, "no_authorization", "This endpoint requires a valid Bearer token"));
  }
  const claims = await deps.signer.verify(match[1]);
  if (claims === null) {
    return err(
      authError(403, "bad_jwt", "invalid JWT: unable to parse or verify signature, token is unverifiable"),
    );
  }
  return ok(claims);
}

/** The session id a token names: null when absent or nil; an error when it is not a UUID. */
function sessionIdClaim(claims: Readonly<Record<string, unknown>>): Result<string | null> {
  const value = claims.session_id;
  if (value === undefined || value === null || value === "" || value === NIL_UUID) return ok(null);
  if (typeof value !== "string" || !isUuid(value)) {
    return err(authError(403, "bad_jwt", "invalid claim: session_id claim must be a UUID"));
  }
  return ok(value);
}

/**
 * Authenticates a user request from its `Authorization: Bearer <jwt>` header (reference
 * `requireAuthentication`): the token must verify, name an existing user by `sub`, and, when it names
 * a session, that session must still exist — so a logged-out session's access tokens stop working here
 * although they are cryptographically valid until they expire. Banned users are refused.
 */
export async function authenticate(
  deps: Pick<SessionsDeps, "signer" | "store" | "clock">,
  input: { authorization: string | undefined },
): Promise<Result<Authenticated>> {
  const verified = await verifiedClaims(deps, input.authorization);
  if (!verified.ok) return verified;
  const claims = verified.value;
  const sub = claims.sub;
  if (typeof sub !== "string" || sub === "") {
    return err(authError(403, "bad_jwt", "invalid claim: missing sub claim"));
  }
  if (!isUuid(sub)) return err(authError(400, "bad_jwt", "invalid claim: sub claim must be a UUID"));
  const sessionId = sessionIdClaim(claims);
  // The user and the session are independent reads: one round trip for both, on every authenticated
  // request. The order of the answers below stays the reference's (user first, then session).
  const [user, session] = await Promise.all([
    deps.store.users.findWithIdentities(sub),
    sessionId.ok && sessionId.value !== null ? deps.store.sessions.find(sessionId.value) : null,
  ]);
  if (user === null) {
    return err(authError(403, "user_not_found", "User from sub claim in JWT does not exist"));
  }
  if (!sessionId.ok) return sessionId;
  if (sessionId.value !== null && session === null) {
    return err(authError(403, "session_not_found", "Session from session_id claim in JWT does not exist"));
  }
  if (isBanned(user, deps.clock.now())) return err(authError(403, "user_banned", "User is banned"));
  return ok({ user, claims, sessionId: sessionId.value });
}

/**
 * Authenticates an admin request: a valid token whose `role` claim is one of the configured admin
 * roles. No `sub` is needed, so the project's `service_role` key works as is.
 */
export async function authenticateAdmin(
  deps: Pick<SessionsDeps, "signer" | "settings" | "store" | "clock">,
  input: { authorization: string | undefined },
): Promise<Result<{ claims: Readonly<Record<string, unknown>>; role: string }, AuthError>> {
  const verified = await verifiedClaims(deps, input.authorization);
  if (!verified.ok) return verified;
  const claims = verified.value;
  const role = claims.role;
  if (typeof role !== "string" || !deps.settings.jwt.adminRoles.includes(role)) {
    return err(authError(403, "not_admin", "User not allowed"));
  }
  // A user's token that carries an admin role (an admin may set `role`) is only as good as the user
  // and the session behind it: logged out, banned or deleted means no longer admin. API keys carry
  // neither `sub` nor `session_id` and are unaffected.
  const sessionId = sessionIdClaim(claims);
  if (!sessionId.ok) return sessionId;
  if (sessionId.value !== null && (await deps.store.sessions.find(sessionId.value)) === null) {
    return err(authError(403, "session_not_found", "Session from session_id claim in JWT does not exist"));
  }
  if (typeof claims.sub === "string" && claims.sub !== "") {
    const user = isUuid(claims.sub) ? await deps.store.users.findById(claims.sub) : null;
    if (user === null || isBanned(user, deps.clock.now())) {
      return err(authError(403, "not_admin", "User not allowed"));
    }
  }
  return ok({ claims, role });
}
