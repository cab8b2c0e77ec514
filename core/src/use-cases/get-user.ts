import type { UserWithIdentities } from "../domain/user.js";
import { authError } from "../errors.js";
import { err, ok, type Result } from "../result.js";
import type { AuthDeps } from "./deps.js";

/**
 * The authenticated user with their identities (`GET /user`). The user may have been deleted since
 * the token was checked, hence the 404.
 */
export async function getUser(
  deps: Pick<AuthDeps, "store">,
  input: { userId: string },
): Promise<Result<UserWithIdentities>> {
  const user = await deps.store.users.findWithIdentities(input.userId);
  if (user === null) return err(authError(404, "user_not_found", "User not found"));
  return ok(user);
}
