import { actorUsername, isBanned, userBody } from "../accounts/index.js";
import {
  type AuthError,
  constantTimeEqual,
  err,
  failures,
  ok,
  type Result,
  type SessionLimits,
} from "../kernel/index.js";
import type { SessionsDeps, SessionsRepositories } from "./deps.js";
import { decideRefresh } from "./refresh-decision.js";
import type { Session } from "./session.js";
import { sessionEnd, supersededBy } from "./session-limits.js";
import { type SessionTokens, signAccessToken } from "./steps/issue-session.js";

const notFound = () => failures.refreshTokenNotFound();
const alreadyUsed = () => failures.refreshTokenAlreadyUsed();

/**
 * The refresh-token grant: exchanges a refresh token for a new access token and the token's child
 * (spec, "States and transitions"). The presented token is revoked and replaced by
 * `tokens.child(presented)`; presenting the previous token again within the reuse interval answers
 * that same child; any other use of a revoked token (with rotation enabled) is treated as theft: it
 * revokes every token descended from it and ends the session, so that the access tokens issued in it
 * stop working at once (every authenticated request checks the session) — committed although the
 * request fails. The reference (v1 tokens) keeps the session; see docs/http-api.md, "Differences".
 */
export async function refreshSession(
  deps: Pick<SessionsDeps, "store" | "clock" | "tokens" | "signer" | "settings">,
  input: { refreshToken: string },
): Promise<Result<SessionTokens>> {
  const presented = input.refreshToken;
  const tokenHash = deps.tokens.hash(presented);
  const found = await deps.store.sessions.findTokenByHash(tokenHash);
  if (found === null) return err(notFound());

  return deps.store.transaction(async (repos): Promise<Result<SessionTokens>> => {
    // Lock the session first: concurrent refreshes of one session queue here, and each re-reads the
    // token afterwards, so the second of two simultaneous refreshes sees the first one's rotation.
    const session = await repos.sessions.lock(found.sessionId);
    const token = session === null ? null : await repos.sessions.findTokenByHash(tokenHash);
    if (session === null || token === null) return err(notFound());
    const user = await repos.users.findById(token.userId);
    if (user === null) return err(notFound());
    const now = deps.clock.now();
    if (isBanned(user, now)) return err(failures.userBannedAtTokenGrant());
    const over = await sessionOver(repos, deps.settings.sessions, session, token.updatedAt, now);
    if (over !== null) return err(over);

    const { rotationEnabled, reuseIntervalMs } = deps.settings.refreshTokens;
    const child = deps.tokens.child(presented);
    const active = token.revoked ? await repos.sessions.activeToken(session.id) : null;
    const decision = decideRefresh({
      revoked: token.revoked,
      revokedAt: token.updatedAt,
      now,
      rotationEnabled,
      reuseIntervalMs,
      activeIsItsChild:
        active !== null &&
        active.parentId === token.id &&
        constantTimeEqual(deps.tokens.hash(child), active.tokenHash),
    });
    if (decision === "refuse") return err(alreadyUsed());
    if (decision === "revoke_descendants") {
      await repos.sessions.revokeDescendants(token.id, now);
      // Whoever holds the stolen chain also holds its access tokens: end the session (its tokens go
      // with it). Returned, not thrown: the revocation must commit although this request fails.
      await repos.sessions.delete(session.id);
      return err(alreadyUsed());
    }
    if (decision === "rotate") {
      await repos.sessions.revokeToken(token.id, now);
      await repos.sessions.insertToken({
        sessionId: session.id,
        userId: user.id,
        tokenHash: deps.tokens.hash(child),
        parentId: token.id,
        revoked: false,
        createdAt: now,
        updatedAt: now,
      });
      const actor = { actorId: user.id, actorUsername: actorUsername(user), at: now };
      await repos.audit.record({ action: "token_refreshed", ...actor });
      await repos.audit.record({ action: "token_revoked", ...actor });
    }
    // "reissue_child" writes no token: the child answered is the one already stored.
    await repos.sessions.markRefreshed(session.id, now);
    const refreshed: Session = { ...session, refreshedAt: now, updatedAt: now };
    const access = await signAccessToken(deps, user, refreshed, now, {
      method: "token_refresh",
      functions: repos.hookFunctions,
    });
    return ok({ ...access, refreshToken: child, user: await userBody(repos, user), session: refreshed });
  });
}

/**
 * The session controls, all of them here: the refresh of a session that ended (not_after, timebox,
 * inactivity) or that a more recently active session of the same user superseded (single session per
 * user) is refused with `session_expired`. Pure comparisons of the locked session row, the presented
 * token's `updated_at` and, for the last rule only, the user's other session rows with the settings.
 */
async function sessionOver(
  repos: Pick<SessionsRepositories, "sessions">,
  limits: SessionLimits,
  session: Session,
  tokenUpdatedAt: Date,
  now: Date,
): Promise<AuthError | null> {
  const end = sessionEnd(session, limits, now, tokenUpdatedAt);
  if (end === "inactivity") return failures.sessionInactive();
  if (end !== null) return failures.sessionExpired();
  if (!limits.singlePerUser) return null;
  const siblings = await repos.sessions.listForUser(session.userId);
  return supersededBy(session, siblings, limits, now, tokenUpdatedAt)
    ? failures.sessionRevokedByNewerLogin()
    : null;
}
