import { actorUsername, isBanned, type UserRepository } from "../../accounts/index.js";
import type { RefreshGrantInput, RefreshGrantOutcome, SessionStore } from "../../sessions/index.js";
import { decideRefresh, sessionEnd, supersededBy } from "../../sessions/index.js";
import type { FakeTables } from "../fake-tables.js";

/**
 * `SessionStore.grantRefresh` over the in-memory tables: the reference the Postgres function
 * (migrations/functions/refresh_token_grant.sql) is held to by the contract suite. Grants run one after the
 * other, as the function's row lock on the session orders them.
 */
export function fakeRefreshGrant(
  t: FakeTables,
  sessions: Omit<SessionStore, "grantRefresh" | "grantPassword" | "findUserAndSession">,
  users: Pick<UserRepository, "findWithIdentities">,
): (input: RefreshGrantInput) => Promise<RefreshGrantOutcome> {
  // One grant at a time, as the session's row lock orders them in Postgres.
  let previous: Promise<unknown> = Promise.resolve();
  const grant = async (input: RefreshGrantInput): Promise<RefreshGrantOutcome> => {
    const token = [...t.tokens.values()].find((r) => r.tokenHash === input.tokenHash);
    const session = token && t.sessions.get(token.sessionId);
    const user = token && t.users.get(token.userId);
    if (!token || !session || !user) return { kind: "not_found" };
    if (session.oauthClientId !== undefined && input.clientId !== session.oauthClientId) {
      return { kind: "client_required" };
    }
    if (session.oauthClientId === undefined && input.clientId !== undefined) {
      return { kind: "client_not_allowed" };
    }
    if (session.dpopJkt !== undefined && input.dpopJkt !== session.dpopJkt) {
      return { kind: "dpop_key_mismatch" };
    }
    const { now } = input;
    if (isBanned(user, now)) return { kind: "banned" };
    const end = sessionEnd(session, input.limits, now, token.updatedAt);
    if (end === "inactivity") return { kind: "session_inactive" };
    if (end !== null) return { kind: "session_expired" };
    if (input.limits.singlePerUser) {
      const siblings = [...t.sessions.values()].filter((s) => s.userId === session.userId);
      if (supersededBy(session, siblings, input.limits, now, token.updatedAt)) {
        return { kind: "session_superseded" };
      }
    }
    const active = token.revoked
      ? ([...t.tokens.values()].filter((r) => r.sessionId === session.id && !r.revoked).at(-1) ?? null)
      : null;
    const decision = decideRefresh({
      revoked: token.revoked,
      revokedAt: token.updatedAt,
      now,
      rotationEnabled: input.rotationEnabled,
      reuseIntervalMs: input.reuseIntervalMs,
      activeIsItsChild:
        active !== null && active.parentId === token.id && active.tokenHash === input.childHash,
    });
    if (decision === "refuse") return { kind: "refused" };
    if (decision === "revoke_descendants") {
      await sessions.revokeDescendants(token.id, now);
      await sessions.delete(session.id);
      return { kind: "reused" };
    }
    if (decision === "rotate") {
      await sessions.revokeToken(token.id, now);
      await sessions.insertToken({
        sessionId: session.id,
        userId: user.id,
        tokenHash: input.childHash,
        parentId: token.id,
        revoked: false,
        createdAt: now,
        updatedAt: now,
      });
      const actor = {
        actorId: user.id,
        actorUsername: actorUsername(user),
        ipAddress: input.ipAddress,
        at: now,
      };
      t.audit.push({ action: "token_refreshed", ...actor }, { action: "token_revoked", ...actor });
    }
    await sessions.markRefreshed(session.id, now);
    const body = (await users.findWithIdentities(user.id)) ?? { ...user, identities: [] };
    return { kind: decision === "rotate" ? "rotated" : "reissued", session, user: body };
  };
  return (input) => {
    const run = previous.then(() => grant(input));
    previous = run.catch(() => {});
    return run;
  };
}
