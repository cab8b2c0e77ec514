import type { PortTraits } from "../../kernel/index.js";

/** The wrong passwords counted against one sign-in identifier (an email address or a phone number). */
export interface SignInFailureCount {
  /** Wrong passwords (and attempts refused by the lockout) since the count last started. */
  readonly failedAttempts: number;
  readonly lastFailedAt: Date | null;
  /** No password is checked before this instant; null when not locked. */
  readonly lockedUntil: Date | null;
}

/**
 * The per-account lockout's counters (`sign_in_failures`), shared by every instance. Keyed by the
 * SHA-256 of the identifier a password sign-in names, whether or not an account has it: an address
 * nobody has is counted and locked alike, so the lockout tells nothing about who is registered.
 */
export interface SignInFailures {
  /** The identifier's count (0, null, null when it has none). */
  read(key: string): Promise<SignInFailureCount>;
  /**
   * Inside a transaction: the identifier's count, its row made when missing and locked until the
   * transaction ends, so that counts from parallel attempts on any instance are taken one after another.
   */
  lock(key: string): Promise<SignInFailureCount>;
  /**
   * Overwrites the identifier's count; the row may be removed after `expiresAt`. `locked` tells that
   * this write started a lock (the metric counts it).
   */
  write(key: string, count: SignInFailureCount, change: { expiresAt: Date; locked: boolean }): Promise<void>;
  /** Forgets the identifiers' counts (a right password, an admin's unlock, a proven mailbox); how many there were. */
  clear(keys: readonly string[]): Promise<number>;
}

export const signInFailuresTraits: PortTraits<SignInFailures> = {
  write: { outcome: ([, , change]) => (change.locked ? { kind: "account_locked" } : undefined) },
  clear: { commits: true },
};
