import type { Factor, FactorType, UserFactors } from "../../accounts/index.js";
import type { AmrEntry } from "../../sessions/index.js";
import type { Challenge } from "../challenge.js";

/** What bounds the guessing of a factor's codes, kept beside it (`mfa_factor_attempts`). */
export interface FactorAttempts {
  /** Codes tried since the factor last accepted one (each counted before it is checked). */
  readonly failedAttempts: number;
  /** No code is checked before this instant (the backoff); null when none is due. */
  readonly lockedUntil: Date | null;
  /** TOTP: the time step of the last code accepted; a code of that step or an older one is refused. */
  readonly lastTotpStep: number | null;
}

/** A factor read under its row lock, with its guessing state. */
export interface LockedFactor {
  readonly factor: Factor;
  readonly attempts: FactorAttempts;
}

/** The second factors of users (`mfa_factors`). */
export interface FactorStore extends UserFactors {
  /**
   * Inserts a new factor; `"name_taken"` when the user already has a factor with this non-empty
   * friendly name, `"phone_taken"` when they already have a factor with this phone number.
   */
  insert(factor: Factor): Promise<"inserted" | "name_taken" | "phone_taken">;
  /** The factor with this id if it belongs to `userId`, else null. */
  findOwned(userId: string, id: string): Promise<Factor | null>;
  /**
   * Like `findOwned`, with the factor's guessing state, and row-locks the factor until the transaction
   * ends: two attempts at one factor are counted one after the other, never from the same count.
   */
  lockOwned(userId: string, id: string): Promise<LockedFactor | null>;
  /** Overwrites the factor's guessing state (a factor never attempted has 0, null, null). */
  setAttempts(id: string, attempts: FactorAttempts): Promise<void>;
  /** Overwrites the factor's friendly name, phone, status, secret and `last_challenged_at`. */
  update(factor: Factor): Promise<"updated" | "name_taken" | "phone_taken">;
  /** Deletes one factor (its challenges go with it); false when there was none. */
  delete(id: string): Promise<boolean>;
  /** Deletes the user's unverified factors of `type`, except `exceptId`. */
  deleteUnverified(userId: string, type: FactorType, exceptId: string): Promise<number>;
  /** Deletes the user's unverified factors created before `before` (abandoned enrolments). */
  deleteUnverifiedBefore(userId: string, before: Date): Promise<number>;
}

/** The challenges of factors (`mfa_challenges`). */
export interface ChallengeStore {
  insert(challenge: Challenge): Promise<void>;
  /** The challenge with this id if it belongs to `factorId`, else null. */
  findOfFactor(factorId: string, id: string): Promise<Challenge | null>;
  /**
   * Counts one code tried against the challenge unless it has taken `max` already: false then (the
   * challenge is void) or when it is gone. One statement, so parallel attempts never pass `max`.
   */
  countAttempt(id: string, max: number): Promise<boolean>;
  /** Marks the challenge used at `at`; false when it was already used (two verifications raced). */
  markVerified(id: string, at: Date): Promise<boolean>;
  delete(id: string): Promise<void>;
}

/** What MFA changes on sessions: their assurance level and authentication methods. */
export interface SessionAssurance {
  /** Sets the session's `aal`, `amr` and the factor that raised it. */
  raise(sessionId: string, change: { amr: readonly AmrEntry[]; factorId: string; at: Date }): Promise<void>;
  /** Deletes the user's sessions below aal2, except `exceptId` (the reference's InvalidateSessionsWithAALLessThan). */
  deleteBelowAal2(userId: string, exceptId: string): Promise<number>;
  /**
   * Lowers the sessions that `factorId` raised back to aal1 and removes `method` from their `amr`
   * (the factor was unenrolled).
   */
  lowerRaisedBy(factorId: string, method: string, at: Date): Promise<number>;
}
