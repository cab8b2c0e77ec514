import { type Factor, normalizePhone } from "../accounts/index.js";
import { failures } from "../failures.js";
import { err, isUuid, ok, type Result, transactionRollingBackOn } from "../kernel/index.js";
import type { MfaDeps, MfaRepositories } from "./deps.js";
import { recoveryCodesStatus } from "./recovery-codes.js";
import { amrMethodOf, ownedFactor } from "./steps/factor-rules.js";

type Deps = Pick<MfaDeps, "store" | "clock">;

/** The user `userId` (404 `user_not_found`), checked before their factors are touched. */
async function existingUser(repos: Pick<MfaRepositories, "users">, userId: string): Promise<Result<true>> {
  if (!isUuid(userId)) return err(failures.userIdNotUuid());
  return (await repos.users.findById(userId)) === null ? err(failures.userNotFound()) : ok(true);
}

/** The factor `factorId` of the existing user `userId`: 404 for an unknown user, then for an unknown factor. */
async function factorOfExistingUser(
  repos: Pick<MfaRepositories, "users" | "factors">,
  userId: string,
  factorId: string,
): Promise<Result<Factor>> {
  const user = await existingUser(repos, userId);
  return user.ok ? ownedFactor(repos, userId, factorId) : user;
}

/** `GET /admin/users/{id}/factors`: every factor of the user, oldest first. */
export async function adminListFactors(deps: Pick<MfaDeps, "store">, input: { userId: string }) {
  const user = await existingUser(deps.store, input.userId);
  if (!user.ok) return user;
  return ok(await deps.store.factors.listByUser(input.userId));
}

/** `GET /admin/users/{id}/factors/recovery-codes`: how many of the user's recovery codes remain. */
export async function adminRecoveryCodesStatus(deps: Pick<MfaDeps, "store">, input: { userId: string }) {
  const user = await existingUser(deps.store, input.userId);
  return user.ok ? recoveryCodesStatus(deps, input) : user;
}

/**
 * `PUT /admin/users/{id}/factors/{factor_id}`: renames a factor, and moves a phone factor to another
 * number. Empty fields are left alone, as the reference does.
 */
export async function adminUpdateFactor(
  deps: Deps,
  input: {
    actor: { role: string };
    userId: string;
    factorId: string;
    friendlyName?: string | undefined;
    phone?: string | undefined;
  },
): Promise<Result<Factor>> {
  const now = deps.clock.now();
  return transactionRollingBackOn(deps.store, async (repos): Promise<Result<Factor>> => {
    const found = await factorOfExistingUser(repos, input.userId, input.factorId);
    if (!found.ok) return found;
    let factor = found.value;
    if (input.friendlyName) factor = { ...factor, friendlyName: input.friendlyName, updatedAt: now };
    if (input.phone && factor.factorType === "phone") {
      const phone = normalizePhone(input.phone);
      if (!phone.ok) return phone;
      factor = { ...factor, phone: phone.value, updatedAt: now };
    }
    const updated = await repos.factors.update(factor);
    if (updated === "name_taken") return err(failures.factorNameConflict(factor.friendlyName));
    if (updated === "phone_taken") return err(failures.verifiedPhoneFactorExists());
    await repos.audit.record({
      action: "factor_updated",
      actorId: "",
      actorUsername: input.actor.role,
      traits: { user_id: input.userId, factor_id: factor.id, factor_type: factor.factorType },
      at: now,
    });
    return ok(factor);
  });
}

/** `DELETE /admin/users/{id}/factors/{factor_id}`: removes any factor; the sessions it raised fall to aal1. */
export async function adminDeleteFactor(
  deps: Deps,
  input: { actor: { role: string }; userId: string; factorId: string },
): Promise<Result<Factor>> {
  const now = deps.clock.now();
  return transactionRollingBackOn(deps.store, async (repos): Promise<Result<Factor>> => {
    const found = await factorOfExistingUser(repos, input.userId, input.factorId);
    if (!found.ok) return found;
    const factor = found.value;
    await repos.audit.record({
      action: "factor_deleted",
      actorId: "",
      actorUsername: input.actor.role,
      traits: { user_id: input.userId, factor_id: factor.id },
      at: now,
    });
    // Lowered before the delete, which clears the sessions' reference to the factor.
    await repos.assurance.lowerRaisedBy(factor.id, amrMethodOf(factor), now);
    await repos.factors.delete(factor.id);
    return ok(factor);
  });
}
