import { type SignInFailureCount, signInKey, type User } from "../accounts/index.js";
import { failures } from "../failures.js";
import { err, isUuid, ok, type Result, transactionRollingBackOn } from "../kernel/index.js";
import type { AdminDeps, AdminRepositories } from "./deps.js";

type Deps = Pick<AdminDeps, "store" | "clock" | "tokens">;

/** The lockout keys of the user's sign-in identifiers: their email address and phone number. */
function keysOf(deps: Pick<AdminDeps, "tokens">, user: User): string[] {
  return [
    ...(user.email ? [signInKey(deps.tokens.hash, "email", user.email)] : []),
    ...(user.phone ? [signInKey(deps.tokens.hash, "phone", user.phone)] : []),
  ];
}

async function existing(repos: Pick<AdminRepositories, "users">, userId: string): Promise<Result<User>> {
  if (!isUuid(userId)) return err(failures.userIdNotUuid());
  const user = await repos.users.findById(userId);
  return user === null ? err(failures.userNotFound()) : ok(user);
}

/** What the lockout holds against a user: the largest count and the latest lock of their identifiers. */
export interface UserLockout {
  readonly failedAttempts: number;
  readonly lockedUntil: Date | null;
}

const merged = (counts: readonly SignInFailureCount[], now: Date): UserLockout => ({
  failedAttempts: Math.max(0, ...counts.map((c) => c.failedAttempts)),
  lockedUntil:
    counts
      .map((c) => c.lockedUntil)
      .filter((d): d is Date => d !== null && d.getTime() > now.getTime())
      .sort((a, b) => b.getTime() - a.getTime())[0] ?? null,
});

/** `GET /admin/users/{id}/lockout`: the wrong passwords counted against the user's identifiers. */
export async function adminGetLockout(deps: Deps, input: { userId: string }): Promise<Result<UserLockout>> {
  const user = await existing(deps.store, input.userId);
  if (!user.ok) return user;
  const counts = [];
  for (const key of keysOf(deps, user.value)) counts.push(await deps.store.signInFailures.read(key));
  return ok(merged(counts, deps.clock.now()));
}

/**
 * `DELETE /admin/users/{id}/lockout`: the admin's unlock. The counts of the user's email address and
 * phone number are forgotten (a lock ends at once), audited as `user_unlocked`.
 */
export async function adminUnlockUser(
  deps: Deps,
  input: { actor: { role: string }; userId: string },
): Promise<Result<UserLockout>> {
  const now = deps.clock.now();
  return transactionRollingBackOn(deps.store, async (repos): Promise<Result<UserLockout>> => {
    const user = await existing(repos, input.userId);
    if (!user.ok) return user;
    const cleared = await repos.signInFailures.clear(keysOf(deps, user.value));
    if (cleared > 0) {
      await repos.audit.record({
        action: "user_unlocked",
        actorId: "",
        actorUsername: input.actor.role,
        traits: { user_id: user.value.id },
        at: now,
      });
    }
    return ok({ failedAttempts: 0, lockedUntil: null });
  });
}
