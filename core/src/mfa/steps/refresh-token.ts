import type { Session } from "../../sessions/index.js";
import type { MfaDeps, MfaRepositories } from "../deps.js";

/**
 * Revokes the session's current refresh token and issues its successor, which the answer carries:
 * the aal1 token can no longer be refreshed into a session a second factor raised.
 */
export async function replaceRefreshToken(
  deps: Pick<MfaDeps, "tokens">,
  repos: Pick<MfaRepositories, "sessions">,
  session: Session,
  now: Date,
): Promise<string> {
  const current = await repos.sessions.activeToken(session.id);
  if (current !== null) await repos.sessions.revokeToken(current.id, now);
  const refreshToken = deps.tokens.generate();
  await repos.sessions.insertToken({
    sessionId: session.id,
    userId: session.userId,
    tokenHash: deps.tokens.hash(refreshToken),
    parentId: current?.id ?? null,
    revoked: false,
    createdAt: now,
    updatedAt: now,
  });
  return refreshToken;
}
