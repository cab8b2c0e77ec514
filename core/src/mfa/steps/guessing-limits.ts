import type { Factor } from "../../accounts/index.js";
import { failures } from "../../failures.js";
import { err, isUuid, ok, type Result, transactionRollingBackOn } from "../../kernel/index.js";
import type { Challenge } from "../challenge.js";
import type { MfaDeps } from "../deps.js";
import type { FactorAttempts } from "../ports/factor-store.js";
import { verifyEnabled } from "./factor-rules.js";

/** Codes one challenge takes; after them it is void and the user makes a new one. */
export const MAX_CODES_PER_CHALLENGE = 5;
/** Wrong codes in a row a factor takes, across its challenges, before each further one must wait. */
export const FREE_WRONG_CODES_PER_FACTOR = 5;
/** The first wait; each further wrong code doubles it, up to a day. */
export const FIRST_BACKOFF_SECONDS = 15;
export const MAX_BACKOFF_SECONDS = 86_400;
/** A count that imposed a wait is forgotten this long after its last wait ended. */
export const FORGET_AFTER_SECONDS = 86_400;

/** The factor's attempts as they count at `now`: forgotten a day after the last wait ended. */
export function currentAttempts(attempts: FactorAttempts, now: Date): FactorAttempts {
  const { lockedUntil } = attempts;
  if (lockedUntil === null || now.getTime() <= lockedUntil.getTime() + FORGET_AFTER_SECONDS * 1000) {
    return attempts;
  }
  return { ...attempts, failedAttempts: 0, lockedUntil: null };
}

/**
 * The attempts after a right code at `now` (`attempts` as counted with it), which used TOTP step
 * `step`. A right code clears a count that imposed no wait: the user's own slips. Once the factor was
 * made to wait, the wrong codes stay counted (until `currentAttempts` forgets them, a day after this
 * code if no wrong one follows): else whoever guesses with the password would start over from five
 * free codes after each of the user's own verifications, 17 guesses a day against a user who verifies
 * daily. The right code itself is not counted and imposes no wait, so the user's next one is not held.
 */
export function afterRightCode(attempts: FactorAttempts, step: number | null, now: Date): FactorAttempts {
  const lastTotpStep = step ?? attempts.lastTotpStep;
  if (attempts.failedAttempts <= FREE_WRONG_CODES_PER_FACTOR) {
    return { failedAttempts: 0, lockedUntil: null, lastTotpStep };
  }
  return { failedAttempts: attempts.failedAttempts - 1, lockedUntil: now, lastTotpStep };
}

/**
 * When the factor takes a code again after `failedAttempts` wrong ones in a row: at once while they
 * are fewer than FREE_WRONG_CODES_PER_FACTOR; then 15 s, 30 s, 1 min … doubling to a day. Past the
 * first day an attacker gets one guess a day, whatever the number of addresses or challenges.
 */
export function backoffEnd(failedAttempts: number, now: Date): Date | null {
  if (failedAttempts < FREE_WRONG_CODES_PER_FACTOR) return null;
  const doublings = failedAttempts - FREE_WRONG_CODES_PER_FACTOR;
  const seconds = Math.min(FIRST_BACKOFF_SECONDS * 2 ** Math.min(doublings, 32), MAX_BACKOFF_SECONDS);
  return new Date(now.getTime() + seconds * 1000);
}

export interface AttemptInput {
  readonly userId: string;
  readonly factorId: string;
  readonly challengeId: string;
  readonly ipAddress: string;
}

/** An attempt counted: the factor and challenge it is at, and the factor's last accepted TOTP step. */
export interface Attempt {
  readonly factor: Factor;
  readonly challenge: Challenge;
  readonly lastTotpStep: number | null;
}

type Deps = Pick<MfaDeps, "store" | "settings">;

/**
 * Admits one code at the challenge and counts it, before the code is looked at, under the factor's
 * row lock: parallel attempts are counted one after the other, so none slips past a limit. The count
 * commits even when the code turns out right; a successful verification clears it unless it had
 * imposed a wait (`afterRightCode`).
 *
 * Refuses an unknown factor or challenge, a used one or one from another address (the reference's
 * answers), an expired one (deleted), a challenge that took MAX_CODES_PER_CHALLENGE codes (422
 * `mfa_challenge_expired`) and a factor in its backoff (429 `over_request_rate_limit`).
 */
export async function admitAttempt(deps: Deps, input: AttemptInput, now: Date): Promise<Result<Attempt>> {
  if (!isUuid(input.factorId)) return err(failures.factorIdNotUuid());
  return transactionRollingBackOn(deps.store, async (repos): Promise<Result<Attempt>> => {
    const locked = await repos.factors.lockOwned(input.userId, input.factorId);
    if (locked === null) return err(failures.factorNotFound());
    const { factor } = locked;
    const attempts = currentAttempts(locked.attempts, now);
    const enabled = verifyEnabled(deps, factor);
    if (!enabled.ok) return enabled;
    const challenge = await repos.challenges.findOfFactor(factor.id, input.challengeId);
    if (challenge === null) return err(failures.challengeNotFound());
    if (challenge.verifiedAt !== null || challenge.ipAddress !== input.ipAddress) {
      return err(failures.challengeIpMismatch());
    }
    if (now.getTime() > challenge.createdAt.getTime() + deps.settings.mfa.challengeExpiry * 1000) {
      await repos.challenges.delete(challenge.id);
      return err(failures.challengeExpired(challenge.id));
    }
    // A void challenge says so first: waiting out the backoff would not help it.
    if (challenge.attempts >= MAX_CODES_PER_CHALLENGE) {
      return err(failures.challengeAttemptsExhausted(challenge.id));
    }
    // Checked before the challenge's count, so that an attempt refused here does not use it up.
    if (attempts.lockedUntil !== null && attempts.lockedUntil.getTime() > now.getTime()) {
      return err(failures.factorBackoff(Math.ceil((attempts.lockedUntil.getTime() - now.getTime()) / 1000)));
    }
    if (!(await repos.challenges.countAttempt(challenge.id, MAX_CODES_PER_CHALLENGE))) {
      return err(failures.challengeAttemptsExhausted(challenge.id));
    }
    const failedAttempts = attempts.failedAttempts + 1;
    const next: FactorAttempts = {
      ...attempts,
      failedAttempts,
      lockedUntil: backoffEnd(failedAttempts, now),
    };
    await repos.factors.setAttempts(factor.id, next);
    return ok({ factor, challenge, lastTotpStep: attempts.lastTotpStep });
  });
}

/** Whether a TOTP code of `step` is one the factor already accepted, or older (RFC 6238 §5.2). */
export const isReplayedStep = (step: number, lastTotpStep: number | null): boolean =>
  lastTotpStep !== null && step <= lastTotpStep;
