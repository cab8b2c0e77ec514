import { failures } from "../failures.js";
import { err, isUuid, ok, type Result } from "../kernel/index.js";
import { type AdminActor, auditActor } from "./actor.js";
import type { AdminDeps } from "./deps.js";

/**
 * Ends a user's sessions for an administrator: one (`sessionId`) or all of them. Deleting a session
 * deletes its refresh tokens, so none of them refreshes again, and `authenticate` refuses its access
 * tokens from then on. A session of another user is answered as one that does not exist. Audited as a
 * `logout` of the user by the administrator.
 */
export async function adminEndSessions(
  deps: Pick<AdminDeps, "store" | "clock">,
  input: { actor: AdminActor; userId: string; sessionId?: string },
): Promise<Result<{ ended: number }>> {
  if (!isUuid(input.userId)) return err(failures.userIdNotUuid());
  const { sessionId } = input;
  if (sessionId !== undefined && !isUuid(sessionId)) return err(failures.userSessionNotFound());
  const now = deps.clock.now();
  return deps.store.transaction(async (repos) => {
    const user = await repos.users.findById(input.userId);
    if (user === null) return err(failures.userNotFound());
    let ended: number;
    if (sessionId === undefined) ended = await repos.sessions.deleteForUser(user.id);
    else {
      const session = await repos.sessions.lock(sessionId);
      if (session === null || session.userId !== user.id) return err(failures.userSessionNotFound());
      ended = (await repos.sessions.delete(session.id)) ? 1 : 0;
    }
    await repos.audit.record({
      action: "logout",
      ...auditActor(input.actor),
      traits: { user_id: user.id, session_id: sessionId ?? "all" },
      at: now,
    });
    return ok({ ended });
  });
}
