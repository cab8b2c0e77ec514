import { type Factor, type FactorCredential, type User, userBody } from "../accounts/index.js";
import { failures } from "../failures.js";
import { mfaVerificationAttempt } from "../hooks/index.js";
import { constantTimeEqual, err, ok, type Result, transactionRollingBackOn } from "../kernel/index.js";
import { type NotifyDeps, notifyAccountChange } from "../messaging/index.js";
import { type Session, type SessionTokens, type StartedSession, signSession } from "../sessions/index.js";
import type { Challenge } from "./challenge.js";
import type { MfaDeps, MfaRepositories } from "./deps.js";
import { callerSession } from "./steps/caller.js";
import { amrMethodOf } from "./steps/factor-rules.js";
import { admitAttempt, afterRightCode, isReplayedStep } from "./steps/guessing-limits.js";
import { replaceRefreshToken } from "./steps/refresh-token.js";

export interface VerifyFactorInput {
  readonly user: User;
  readonly sessionId: string | null;
  readonly factorId: string;
  readonly challengeId: string;
  readonly code: string;
  /** The caller's address: it must be the challenge's. */
  readonly ipAddress: string;
  /** WebAuthn factors: the browser's answer to the challenge's options (`create` or `request`). */
  readonly webauthn?: { readonly type: string; readonly credentialResponse: unknown } | undefined;
}

type Deps = Pick<
  MfaDeps,
  | "store"
  | "clock"
  | "random"
  | "tokens"
  | "settings"
  | "signer"
  | "totp"
  | "secretBox"
  | "webauthn"
  | "mailer"
  | "deliveries"
> &
  Pick<NotifyDeps, "settings"> &
  Partial<Pick<MfaDeps, "hooks">>;

/**
 * `POST /factors/{id}/verify`: answers a challenge with a code. On success the caller's session is
 * raised to aal2 and its `amr` gains `totp` or `mfa/phone`; a new refresh token replaces the
 * session's current one (the aal1 token can no longer be refreshed into the aal2 session); the
 * factor becomes verified; the user's other sessions below aal2 end, and their other unverified
 * factors of this type go. Answers the new token response.
 *
 * Guessing is bounded whatever the caller's address: a challenge takes MAX_CODES_PER_CHALLENGE codes,
 * a factor's wrong codes in a row impose a doubling backoff, and a TOTP code of a step the factor
 * already accepted (or an older one) is refused (`steps/guessing-limits.ts`).
 */
export async function verifyFactor(deps: Deps, input: VerifyFactorInput): Promise<Result<SessionTokens>> {
  if (input.user.isAnonymous) return err(failures.anonymousMfa());
  if (input.code === "" && input.webauthn === undefined) return err(failures.mfaCodeMissing());
  const now = deps.clock.now();
  const checked = await checkCode(deps, input, now);
  if (!checked.ok) return checked;
  const enrolled: Factor[] = [];
  const raised = await transactionRollingBackOn(deps.store, (repos) =>
    raiseSession(deps, repos, input, { ...checked.value, now, enrolled }),
  );
  // A factor verified for the first time is news to the user, whatever the access token hook says next.
  if (raised.ok) {
    for (const { factorType } of enrolled) {
      await notifyAccountChange(
        deps,
        input.user,
        { kind: "mfa_factor_enrolled_notification", factorType },
        now,
      );
    }
  }
  // The custom access token hook runs once the raise committed (see signSession): its failure ends
  // the session.
  return raised.ok ? signSession(deps, raised.value) : raised;
}

/** What a right code proved: the factor and challenge it answered, and its TOTP step. */
interface CheckedCode {
  readonly factor: Factor;
  readonly challenge: Challenge;
  /** TOTP: the time step of the code (null for a phone code). */
  readonly totpStep: number | null;
  /** WebAuthn: the factor's credential as the answer left it (registered, or its counter advanced). */
  readonly credential?: FactorCredential | undefined;
}

/**
 * Admits the attempt (counted against the challenge and the factor, see guessing-limits.ts), then
 * checks the code. Nothing but the count is written before the code proved right.
 */
async function checkCode(deps: Deps, input: VerifyFactorInput, now: Date): Promise<Result<CheckedCode>> {
  const admitted = await admitAttempt(
    deps,
    {
      userId: input.user.id,
      factorId: input.factorId,
      challengeId: input.challengeId,
      ipAddress: input.ipAddress,
    },
    now,
  );
  if (!admitted.ok) return admitted;
  const { factor, challenge, lastTotpStep } = admitted.value;
  let matched: { valid: boolean; totpStep: number | null; credential?: FactorCredential | undefined } | null;
  if (factor.factorType === "webauthn") {
    const answered = await webauthnAnswer(deps, factor, challenge, input.webauthn);
    if (!answered.ok) return answered;
    matched = answered.value;
  } else {
    if (input.code === "") return err(failures.mfaCodeMissing());
    matched = codeMatches(deps, factor, challenge, input.code, now);
  }
  if (matched === null) return err(failures.mfaSecretUnreadable());
  // RFC 6238 §5.2: a code seen once must not prove anything again, even within its step.
  const replayed = matched.totpStep !== null && isReplayedStep(matched.totpStep, lastTotpStep);
  const valid = matched.valid && !replayed;

  // The MFA verification attempt hook hears of every checked code, before anything is written; its
  // "reject" ends all of the user's sessions (reference mfa.go). It runs outside any transaction.
  const verdict = await mfaVerificationAttempt(deps, {
    userId: input.user.id,
    factorId: factor.id,
    factorType: factor.factorType,
    valid,
  });
  if (verdict !== null) {
    if (verdict.rejected) await deps.store.sessions.deleteForUser(input.user.id);
    return err(verdict.refusal);
  }
  if (replayed) return err(failures.totpCodeReused());
  if (!valid) return err(invalidAnswer(factor));
  return ok({ factor, challenge, totpStep: matched.totpStep, credential: matched.credential });
}

/** A TOTP secret sealed with an older key (key rotation, a configured key after the derived one). */
function sealedWithCurrentKey(deps: Pick<MfaDeps, "secretBox">, factor: Factor): boolean {
  return factor.secret === null || deps.secretBox.isCurrent(factor.secret);
}

/** The factor's secret, sealed again with the current key when it was not (it opened above). */
function resealed(deps: Pick<MfaDeps, "secretBox">, factor: Factor): string | null {
  if (factor.secret === null || deps.secretBox.isCurrent(factor.secret)) return factor.secret;
  const secret = deps.secretBox.open(factor.id, factor.secret);
  return secret === null ? factor.secret : deps.secretBox.seal(factor.id, secret);
}

/**
 * Whether `code` answers the challenge, with the TOTP step it is the code of; null when the stored
 * secret does not open (wrong key).
 */
function codeMatches(
  deps: Deps,
  factor: Factor,
  challenge: Challenge,
  code: string,
  now: Date,
): { valid: boolean; totpStep: number | null } | null {
  if (factor.factorType === "totp") {
    const secret = factor.secret === null ? null : deps.secretBox.open(factor.id, factor.secret);
    if (secret === null) return null;
    const totpStep = deps.totp.match(secret, code, now);
    return { valid: totpStep !== null, totpStep };
  }
  const expected = challenge.otpCode === null ? null : deps.secretBox.open(challenge.id, challenge.otpCode);
  return expected === null ? null : { valid: constantTimeEqual(expected, code), totpStep: null };
}

async function raiseSession(
  deps: Deps,
  repos: MfaRepositories,
  input: VerifyFactorInput,
  context: CheckedCode & { now: Date; enrolled: Factor[] },
): Promise<Result<StartedSession>> {
  const { challenge, totpStep, now } = context;
  // The session's row lock serialises this with its refreshes.
  const locked = await callerSession(repos, input.sessionId, { lock: true });
  if (!locked.ok) return locked;
  // Then the factor's (the order unenrolment takes them in): of two verifications with one TOTP code,
  // on two challenges, the second finds its step used.
  const current = await repos.factors.lockOwned(input.user.id, context.factor.id);
  if (current === null) return err(failures.factorNotFound());
  const { factor, attempts } = current;
  if (totpStep !== null && isReplayedStep(totpStep, attempts.lastTotpStep)) {
    return err(failures.totpCodeReused());
  }
  // Likewise a WebAuthn counter value: of two assertions showing one (a cloned authenticator used
  // twice at once), checked each against the counter before either was stored, the second is refused.
  if (factor.status === "verified" && context.credential && !counterAdvanced(factor, context.credential)) {
    return err(failures.webauthnFactorRejected());
  }
  // Verifying a factor adds it, as enrolling does (checkEnrolment): next to a verified factor that
  // needs aal2. Else a factor enrolled by someone with the password before the user's first factor was
  // verified (its verification drops only unverified factors of its own type) would raise their aal1
  // session to aal2 later, passing the user's factor.
  if (factor.status !== "verified" && locked.value.aal !== "aal2") {
    const others = await repos.factors.listByUser(input.user.id);
    if (others.some((f) => f.id !== factor.id && f.status === "verified")) {
      return err(failures.verifyNeedsAal2());
    }
  }
  // One code, one session: of two verifications of one challenge, the second finds it used.
  if (!(await repos.challenges.markVerified(challenge.id, now))) return err(failures.challengeIpMismatch());
  const user = await repos.users.findById(input.user.id);
  if (user === null) return err(failures.jwtUserMissing());
  // A right code clears the count of the user's slips, not of guesses that imposed a wait.
  await repos.factors.setAttempts(factor.id, afterRightCode(attempts, totpStep, now));
  await repos.audit.record({
    action: "verification_attempted",
    actorId: user.id,
    actorUsername: user.phone || user.email || "",
    traits: { factor_id: factor.id, challenge_id: challenge.id, factor_type: factor.factorType },
    at: now,
  });
  const status = "verified" as const;
  if (factor.status !== status) context.enrolled.push(factor);
  if (factor.status !== status || !sealedWithCurrentKey(deps, factor) || context.credential) {
    await repos.factors.update({
      ...factor,
      status,
      secret: resealed(deps, factor),
      updatedAt: now,
      ...(context.credential ? { webauthnCredential: context.credential } : {}),
    });
  }
  const method = amrMethodOf(factor);
  const session: Session = {
    ...locked.value,
    aal: "aal2",
    // Newest first: the claim lists methods by time, and a tie (same second) keeps this order.
    amr: [
      { method, timestamp: Math.floor(now.getTime() / 1000) },
      ...locked.value.amr.filter((entry) => entry.method !== method),
    ],
    updatedAt: now,
  };
  await repos.assurance.raise(session.id, { amr: session.amr, factorId: factor.id, at: now });
  const refreshToken = await replaceRefreshToken(deps, repos, session, now);
  await repos.assurance.deleteBelowAal2(user.id, session.id);
  await repos.factors.deleteUnverified(user.id, factor.factorType, factor.id);
  return ok({ session, refreshToken, user: await userBody(repos, user), method, now });
}

/** Whether an assertion's counter is past the stored one (or both are 0: an authenticator keeping none). */
function counterAdvanced(factor: Factor, asserted: FactorCredential): boolean {
  const stored = factor.webauthnCredential?.signCount ?? 0;
  return asserted.signCount > stored || (asserted.signCount === 0 && stored === 0);
}

/** The refusal of a wrong answer, by factor type. */
function invalidAnswer(factor: Factor) {
  if (factor.factorType === "totp") return failures.totpCodeInvalid();
  if (factor.factorType === "webauthn") return failures.webauthnFactorRejected();
  return failures.phoneCodeInvalid();
}

/**
 * Whether a WebAuthn answer proves the factor: for an unverified factor, a registration against the
 * challenge's creation options (its credential then becomes the factor's); for a verified one, an
 * assertion by the factor's own credential with an advancing counter and an unchanged backup
 * eligibility. A malformed request is refused before anything is checked.
 */
async function webauthnAnswer(
  deps: Deps,
  factor: Factor,
  challenge: Challenge,
  answer: VerifyFactorInput["webauthn"],
): Promise<Result<{ valid: boolean; totpStep: null; credential?: FactorCredential }>> {
  if (answer === undefined) return err(failures.webauthnConfigRequired());
  if (answer.type !== "create" && answer.type !== "request") return err(failures.webauthnTypeInvalid());
  if (answer.credentialResponse === undefined || answer.credentialResponse === null)
    return err(failures.webauthnResponseRequired());
  const refused = ok({ valid: false, totpStep: null });
  const state = challenge.webauthnState;
  const expected = factor.status === "verified" ? "request" : "create";
  if (!state || answer.type !== expected) return refused;
  const rp = deps.settings.webauthn.rp;
  if (expected === "create") {
    const registered = await deps.webauthn.verifyRegistration(rp, state, answer.credentialResponse);
    return registered.ok ? ok({ valid: true, totpStep: null, credential: registered.value }) : refused;
  }
  const stored = factor.webauthnCredential;
  const claim = deps.webauthn.readAssertion(answer.credentialResponse);
  if (!stored || claim === null || claim.credentialId !== stored.credentialId) return refused;
  const asserted = await deps.webauthn.verifyAssertion(rp, state, answer.credentialResponse, stored);
  if (!asserted.ok || asserted.value.backupEligible !== stored.backupEligible) return refused;
  const { signCount, backedUp } = asserted.value;
  return ok({ valid: true, totpStep: null, credential: { ...stored, signCount, backedUp } });
}
