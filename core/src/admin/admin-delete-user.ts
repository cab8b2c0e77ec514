import { err, failures, isUuid, ok, type Result } from "../kernel/index.js";
import type { AdminDeps } from "./deps.js";

/**
 * Deletes a user for an admin (`DELETE /admin/users/{id}`): identities, sessions and refresh tokens go
 * with it. The audit entry is written in the same transaction, so a deletion is never unrecorded.
 * `actor.role` is the admin token's role, recorded as the actor's name.
 */
export async function adminDeleteUser(
  deps: Pick<AdminDeps, "store" | "clock">,
  input: { actor: { role: string }; userId: string },
): Promise<Result<void>> {
  if (!isUuid(input.userId)) return err(failures.userIdNotUuid());
  const now = deps.clock.now();
  return deps.store.transaction(async (repos) => {
    const user = await repos.users.lock(input.userId);
    if (user === null) return err(failures.userNotFound());
    await repos.audit.record({
      action: "user_deleted",
      actorId: "",
      actorUsername: input.actor.role,
      traits: { user_id: user.id, user_email: user.email ?? "", user_phone: user.phone ?? "" },
      at: now,
    });
    await repos.users.delete(user.id);
    return ok(undefined);
  });
}
