import { type Factor, type User, userBody } from "../accounts/index.js";
import { failures } from "../failures.js";
import { mfaVerificationAttempt } from "../hooks/index.js";
import { constantTimeEqual, err, ok, type Result, transactionRollingBackOn } from "../kernel/index.js";
import { type Session, type SessionTokens, type StartedSession, signSession } from "../sessions/index.js";
import type { MfaDeps, MfaRepositories } from "./deps.js";
import type { StoredRecoveryCode } from "./ports/recovery-code-store.js";
import { recoveryFactorOf } from "./recovery-codes.js";
import { callerSession } from "./steps/caller.js";
import { afterRightCode, backoffEnd, currentAttempts } from "./steps/guessing-limits.js";
import { canonicalRecoveryCode } from "./steps/recovery-code-text.js";
import { replaceRefreshToken } from "./steps/refresh-token.js";

export interface VerifyRecoveryCodeInput {
  readonly user: User;
  readonly sessionId: string | null;
  /** As typed: case, whitespace and `-` do not matter. */
  readonly code: string;
}

type Deps = Pick<MfaDeps, "store" | "clock" | "random" | "tokens" | "settings" | "signer"> &
  Partial<Pick<MfaDeps, "hooks">>;

const METHOD = "mfa/recovery_code";

/**
 * `POST /factors/recovery-codes/verify`: one of the user's unused recovery codes raises the caller's
 * session to aal2 (`amr` gains `mfa/recovery_code`), once: the code is then used. As a factor's
 * verification does, it replaces the session's refresh token and ends the user's other sessions below
 * aal2.
 *
 * Each code tried is counted on the recovery-code factor before it is looked at, with the wrong-code
 * backoff of every factor (`steps/guessing-limits.ts`): a wait answers 429 `mfa_recovery_codes_locked`.
 * The code's hash is compared with every unused one in constant time.
 */
export async function verifyRecoveryCode(
  deps: Deps,
  input: VerifyRecoveryCodeInput,
): Promise<Result<SessionTokens>> {
  if (input.user.isAnonymous) return err(failures.anonymousMfa());
  if (!deps.settings.mfa.recoveryCodes.verifyEnabled) return err(failures.recoveryCodesVerifyDisabled());
  const now = deps.clock.now();
  const admitted = await admit(deps, input.user.id, now);
  if (!admitted.ok) return admitted;
  const { factor, unused } = admitted.value;
  const code = canonicalRecoveryCode(input.code);
  const match = code === "" ? null : matching(deps, unused, code);
  // The MFA verification attempt hook hears of every checked code, as for any factor.
  const verdict = await mfaVerificationAttempt(deps, {
    userId: input.user.id,
    factorId: factor.id,
    factorType: factor.factorType,
    valid: match !== null,
  });
  if (verdict !== null) {
    if (verdict.rejected) await deps.store.sessions.deleteForUser(input.user.id);
    return err(verdict.refusal);
  }
  if (match === null) return err(failures.recoveryCodeInvalid());
  const raised = await transactionRollingBackOn(deps.store, (repos) =>
    raise(deps, repos, input, { factor, code: match, now }),
  );
  return raised.ok ? signSession(deps, raised.value) : raised;
}

/** Counts the attempt under the factor's row lock, unless the factor is in its wait. */
async function admit(deps: Deps, userId: string, now: Date) {
  return transactionRollingBackOn(
    deps.store,
    async (repos): Promise<Result<{ factor: Factor; unused: readonly StoredRecoveryCode[] }>> => {
      const found = await recoveryFactorOf(repos, userId);
      if (found === null) return err(failures.recoveryCodesNotFound());
      const locked = await repos.factors.lockOwned(userId, found.id);
      if (locked === null) return err(failures.recoveryCodesNotFound());
      const attempts = currentAttempts(locked.attempts, now);
      if (attempts.lockedUntil !== null && attempts.lockedUntil.getTime() > now.getTime()) {
        const seconds = Math.ceil((attempts.lockedUntil.getTime() - now.getTime()) / 1000);
        return err(failures.recoveryCodesLocked(seconds));
      }
      const failedAttempts = attempts.failedAttempts + 1;
      await repos.factors.setAttempts(found.id, {
        ...attempts,
        failedAttempts,
        lockedUntil: backoffEnd(failedAttempts, now),
      });
      return ok({ factor: locked.factor, unused: await repos.recoveryCodes.unused(found.id) });
    },
  );
}

/** The unused code whose hash is the typed code's: every one is compared, each in constant time. */
function matching(deps: Deps, unused: readonly StoredRecoveryCode[], code: string) {
  const hash = deps.tokens.hash(code);
  let found: StoredRecoveryCode | null = null;
  for (const stored of unused) if (constantTimeEqual(stored.codeHash, hash)) found = stored;
  return found;
}

async function raise(
  deps: Deps,
  repos: MfaRepositories,
  input: VerifyRecoveryCodeInput,
  context: { factor: Factor; code: StoredRecoveryCode; now: Date },
): Promise<Result<StartedSession>> {
  const { factor, code, now } = context;
  const locked = await callerSession(repos, input.sessionId, { lock: true });
  if (!locked.ok) return locked;
  const current = await repos.factors.lockOwned(input.user.id, factor.id);
  if (current === null) return err(failures.recoveryCodesNotFound());
  // Of two verifications with one code, the second finds it used.
  if (!(await repos.recoveryCodes.consume(code.id, now))) return err(failures.recoveryCodeInvalid());
  const user = await repos.users.findById(input.user.id);
  if (user === null) return err(failures.jwtUserMissing());
  await repos.factors.setAttempts(factor.id, afterRightCode(current.attempts, null, now));
  await repos.audit.record({
    action: "verification_attempted",
    actorId: user.id,
    actorUsername: user.phone || user.email || "",
    traits: { factor_id: factor.id, factor_type: factor.factorType },
    at: now,
  });
  const session: Session = {
    ...locked.value,
    aal: "aal2",
    amr: [
      { method: METHOD, timestamp: Math.floor(now.getTime() / 1000) },
      ...locked.value.amr.filter((entry) => entry.method !== METHOD),
    ],
    updatedAt: now,
  };
  await repos.assurance.raise(session.id, { amr: session.amr, factorId: factor.id, at: now });
  const refreshToken = await replaceRefreshToken(deps, repos, session, now);
  await repos.assurance.deleteBelowAal2(user.id, session.id);
  return ok({ session, refreshToken, user: await userBody(repos, user), method: METHOD, now });
}
