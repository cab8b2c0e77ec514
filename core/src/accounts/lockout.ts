import type { SignInFailureCount } from "./ports/sign-in-failures.js";

/** The per-account lockout (`LOCKOUT_*`): wrong passwords in a row, then waits, then a lock. */
export interface LockoutSettings {
  readonly enabled: boolean;
  /** From this many wrong passwords in a row, each further attempt waits (1 s, doubling, up to a minute). */
  readonly backoffAfter: number;
  /** At this many, the identifier is locked for `lockSeconds`. */
  readonly lockAfter: number;
  readonly lockSeconds: number;
  /** A count is forgotten this long after its last wrong password (and once its lock ended). */
  readonly resetSeconds: number;
}

const MAX_BACKOFF_SECONDS = 60;
export const NO_FAILURES: SignInFailureCount = { failedAttempts: 0, lastFailedAt: null, lockedUntil: null };

/** The count as it stands at `now`: forgotten `resetSeconds` after the last failure once no lock holds. */
export function currentCount(count: SignInFailureCount, s: LockoutSettings, now: Date): SignInFailureCount {
  if (count.lastFailedAt === null) return NO_FAILURES;
  const locked = count.lockedUntil !== null && count.lockedUntil.getTime() > now.getTime();
  const stale = now.getTime() - count.lastFailedAt.getTime() > s.resetSeconds * 1000;
  return stale && !locked ? NO_FAILURES : count;
}

/** When the next password may be checked: after the lock, or the backoff's wait; null: at once. */
export function nextAttemptAt(count: SignInFailureCount, s: LockoutSettings): Date | null {
  if (count.lockedUntil !== null) return count.lockedUntil;
  if (count.lastFailedAt === null || count.failedAttempts < s.backoffAfter) return null;
  const doublings = Math.min(count.failedAttempts - s.backoffAfter, 16);
  const seconds = Math.min(2 ** doublings, MAX_BACKOFF_SECONDS);
  return new Date(count.lastFailedAt.getTime() + seconds * 1000);
}

/** Whether a password sign-in at `now` is refused without its password being looked at. */
export function refusesNow(count: SignInFailureCount, s: LockoutSettings, now: Date): boolean {
  const next = nextAttemptAt(currentCount(count, s, now), s);
  return next !== null && next.getTime() > now.getTime();
}

/**
 * The count after one more failure at `now`, and whether it starts a lock: the failure that reaches
 * `lockAfter` locks; while a lock holds, further failures are counted but do not extend it; once it
 * ended, the next failure locks again (the count stays until a right password or `resetSeconds`).
 */
export function afterFailure(
  count: SignInFailureCount,
  s: LockoutSettings,
  now: Date,
): { count: SignInFailureCount; locked: boolean; expiresAt: Date } {
  const current = currentCount(count, s, now);
  const failedAttempts = current.failedAttempts + 1;
  const holding = current.lockedUntil !== null && current.lockedUntil.getTime() > now.getTime();
  const locks = !holding && failedAttempts >= s.lockAfter;
  const lockedUntil = holding
    ? current.lockedUntil
    : locks
      ? new Date(now.getTime() + s.lockSeconds * 1000)
      : null;
  const forgetAt = now.getTime() + s.resetSeconds * 1000;
  const expiresAt = new Date(Math.max(forgetAt, lockedUntil?.getTime() ?? 0));
  return { count: { failedAttempts, lastFailedAt: now, lockedUntil }, locked: locks, expiresAt };
}

/** The key of a sign-in identifier: the hash of its channel and normalized value. */
export const signInKey = (hash: (text: string) => string, channel: "email" | "phone", normalized: string) =>
  hash(`${channel}:${normalized}`);
