import type { UserWithIdentities } from "../accounts/index.js";
import { failures } from "../failures.js";
import { err, isUuid, ok, type Result } from "../kernel/index.js";
import type { AdminDeps } from "./deps.js";

/**
 * One user with identities, for an admin (`GET /admin/users/{id}`). An id that is not a UUID cannot
 * name a user: the reference answers 404 `validation_failed` for it, and checking here keeps a
 * malformed id away from the uuid column.
 */
export async function adminGetUser(
  deps: Pick<AdminDeps, "store">,
  input: { userId: string },
): Promise<Result<UserWithIdentities>> {
  if (!isUuid(input.userId)) return err(failures.userIdNotUuid());
  const user = await deps.store.users.findWithIdentities(input.userId);
  if (user === null) return err(failures.userNotFound());
  return ok(user);
}
