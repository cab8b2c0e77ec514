import { actorUsername } from "../accounts/index.js";
import { ok, type Result } from "../kernel/index.js";
import type { SessionsDeps } from "./deps.js";

/** Which sessions a logout ends: all of the user's, the current one, or all but the current one. */
export type LogoutScope = "global" | "local" | "others";

/**
 * Ends sessions of the authenticated user. Deleting a session deletes its refresh tokens, so they can
 * no longer be refreshed; access tokens already issued stay valid until they expire but are refused
 * by `authenticate` because their session is gone. A token without a session logs out globally.
 */
export async function logout(
  deps: Pick<SessionsDeps, "store" | "clock">,
  input: { userId: string; sessionId: string | null; scope: LogoutScope },
): Promise<Result<void>> {
  const now = deps.clock.now();
  const { userId, sessionId, scope } = input;
  await deps.store.transaction(async (repos) => {
    if (sessionId === null || scope === "global") await repos.sessions.deleteForUser(userId);
    else if (scope === "local") await repos.sessions.delete(sessionId);
    else await repos.sessions.deleteForUser(userId, { except: sessionId });
    const user = await repos.users.findById(userId);
    await repos.audit.record({
      action: "logout",
      actorId: userId,
      actorUsername: user ? actorUsername(user) : "",
      at: now,
    });
  });
  return ok(undefined);
}
