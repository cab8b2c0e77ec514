import { actorUsername } from "../accounts/index.js";
import { failures } from "../failures.js";
import { err, isUuid, ok, type Result } from "../kernel/index.js";
import type { SessionsDeps } from "./deps.js";
import type { Session } from "./session.js";
import { fixedEnd, sessionEnd } from "./session-limits.js";

/** One of the user's sessions as the user may see it: never a refresh token, not even its hash. */
export interface SessionView {
  readonly session: Session;
  /** The session the request's access token belongs to. */
  readonly current: boolean;
  /** When it ends regardless of activity (stored `not_after` or timebox), or null. */
  readonly notAfter: Date | null;
  /** Whether it can still be refreshed now (no limit of `SESSIONS_*` passed). */
  readonly active: boolean;
}

/**
 * The signed-in user's sessions, oldest first (`GET /user/sessions`, an extension of the reference's
 * interface): one per sign-in, so a user can tell their devices apart and end one of them.
 */
export async function listUserSessions(
  deps: Pick<SessionsDeps, "store" | "clock" | "settings">,
  input: { userId: string; currentSessionId: string | null },
): Promise<Result<SessionView[]>> {
  const now = deps.clock.now();
  const limits = deps.settings.sessions;
  const sessions = await deps.store.sessions.listForUser(input.userId);
  return ok(
    sessions.map((session) => ({
      session,
      current: session.id === input.currentSessionId,
      notAfter: fixedEnd(session, limits),
      active: sessionEnd(session, limits, now) === null,
    })),
  );
}

/**
 * Ends one of the signed-in user's sessions (`DELETE /user/sessions/{id}`): its refresh tokens go with
 * it and its access tokens are refused from then on, as after a logout. A session of another user is
 * answered exactly like one that does not exist, so ids of other users' sessions cannot be probed.
 */
export async function revokeUserSession(
  deps: Pick<SessionsDeps, "store" | "clock">,
  input: { userId: string; sessionId: string },
): Promise<Result<void>> {
  if (!isUuid(input.sessionId)) return err(failures.userSessionNotFound());
  const now = deps.clock.now();
  return deps.store.transaction(async (repos) => {
    const session = await repos.sessions.lock(input.sessionId);
    if (session === null || session.userId !== input.userId) return err(failures.userSessionNotFound());
    await repos.sessions.delete(session.id);
    const user = await repos.users.findById(input.userId);
    await repos.audit.record({
      action: "logout",
      actorId: input.userId,
      actorUsername: user ? actorUsername(user) : "",
      traits: { session_id: session.id },
      at: now,
    });
    return ok(undefined);
  });
}
