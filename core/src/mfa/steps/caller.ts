import { failures } from "../../failures.js";
import { err, ok, type Result } from "../../kernel/index.js";
import type { Session, SessionStore } from "../../sessions/index.js";

/**
 * The caller's session, read again inside the transaction: its assurance level decides what the
 * caller may do. A token without a session (an API key) cannot manage factors.
 */
export async function callerSession(
  repos: { readonly sessions: SessionStore },
  sessionId: string | null,
  options: { lock?: boolean } = {},
): Promise<Result<Session>> {
  if (sessionId === null) return err(failures.jwtSessionMissing());
  const session = options.lock ? await repos.sessions.lock(sessionId) : await repos.sessions.find(sessionId);
  return session === null ? err(failures.jwtSessionMissing()) : ok(session);
}
