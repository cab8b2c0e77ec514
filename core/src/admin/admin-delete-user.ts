import type { User } from "../accounts/index.js";
import { failures } from "../failures.js";
import { err, isUuid, ok, type Result } from "../kernel/index.js";
import type { AdminDeps, AdminRepositories } from "./deps.js";
import { obfuscator } from "./obfuscate.js";

/**
 * Deletes a user for an admin (`DELETE /admin/users/{id}`): identities, sessions and refresh tokens go
 * with it. With `softDelete` (`should_soft_delete`) the row stays, obfuscated as the reference does
 * (see `softDelete`); a user already soft-deleted is left as is. The audit entry is written in the same
 * transaction, first, as the reference does, so a deletion is never unrecorded. `actor.role` is the
 * admin token's role, recorded as the actor's name.
 */
export async function adminDeleteUser(
  deps: Pick<AdminDeps, "store" | "clock" | "tokens">,
  input: { actor: { role: string }; userId: string; softDelete?: boolean },
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
    if (input.softDelete !== true) await repos.users.delete(user.id);
    else if (user.deletedAt === null) await softDelete(deps, repos, user, now);
    return ok(undefined);
  });
}

/**
 * The reference's soft delete (`SoftDeleteUser`, `SoftDeleteUserIdentities`): email, phone and pending
 * changes replaced by one-way hashes (so the user can no longer sign in with them and the addresses are
 * free again), password, metadata and every pending one-time token cleared, `deleted_at` set, every
 * flow state (PKCE codes, linking flows) dropped, every session ended, every second factor removed; each identity keeps its provider but loses its data and its provider's subject is
 * hashed, so an external sign-in no longer finds this user.
 */
async function softDelete(
  deps: Pick<AdminDeps, "tokens">,
  repos: AdminRepositories,
  user: User,
  now: Date,
): Promise<void> {
  const hide = obfuscator(deps.tokens, user.id);
  const outcome = await repos.users.update({
    ...user,
    email: hide.email(user.email),
    phone: hide.phone(user.phone),
    emailChange: hide.email(user.emailChange),
    phoneChange: hide.phone(user.phoneChange),
    encryptedPassword: null,
    reauthenticationToken: null,
    userMetadata: {},
    appMetadata: {},
    deletedAt: now,
    updatedAt: now,
  });
  // A hash of this user's own id cannot be another user's value; a clash is a fault, not a refusal.
  if (outcome !== "updated") throw new Error(`soft delete of user ${user.id}: ${outcome}`);
  await repos.oneTimeTokens.deleteForUser(user.id);
  // A PKCE code issued before the deletion (or a linking flow targeting the user) must not be
  // exchanged for a session afterwards.
  await repos.flowStates.deleteForUser(user.id);
  await repos.sessions.deleteForUser(user.id);
  for (const factor of await repos.factors.listByUser(user.id)) await repos.factors.delete(factor.id);
  for (const identity of await repos.identities.listByUser(user.id)) {
    await repos.identities.update({
      ...identity,
      providerId: hide.providerId(identity.provider, identity.providerId),
      identityData: {},
      updatedAt: now,
    });
  }
}
