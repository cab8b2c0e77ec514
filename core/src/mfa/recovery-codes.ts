import type { Factor, User } from "../accounts/index.js";
import { failures } from "../failures.js";
import { err, ok, type Result, transactionRollingBackOn } from "../kernel/index.js";
import type { MfaDeps, MfaRepositories } from "./deps.js";
import { callerSession } from "./steps/caller.js";
import { checkEnrolment } from "./steps/factor-rules.js";
import {
  DEFAULT_RECOVERY_CODES_NAME,
  RECOVERY_CODE_ALPHABET,
  RECOVERY_CODE_LENGTH,
} from "./steps/recovery-code-text.js";

/** A new set of codes: shown once, stored only hashed. */
export interface RecoveryCodeSet {
  readonly factor: Factor;
  readonly codes: readonly string[];
}

/** How many codes a set has and how many are left (never the codes). */
export interface RecoveryCodesStatus {
  readonly factorId: string;
  readonly total: number;
  readonly remaining: number;
}

type Deps = Pick<MfaDeps, "store" | "clock" | "random" | "tokens" | "settings">;
interface Caller {
  readonly user: User;
  readonly sessionId: string | null;
}

/** The user's recovery-code factor, if any (a user has one set at most). */
export async function recoveryFactorOf(
  repos: Pick<MfaRepositories, "factors">,
  userId: string,
): Promise<Factor | null> {
  const factors = await repos.factors.listByUser(userId);
  return factors.find((f) => f.factorType === "recovery_code") ?? null;
}

/** Draws a set, stores its hashes in place of the factor's old codes, and answers the codes. */
async function newSet(deps: Deps, repos: MfaRepositories, factorId: string, now: Date) {
  const count = deps.settings.mfa.recoveryCodes.count;
  const codes = Array.from({ length: count }, () =>
    deps.random.characters(RECOVERY_CODE_LENGTH, RECOVERY_CODE_ALPHABET),
  );
  const stored = codes.map((code) => ({ id: deps.random.uuid(), codeHash: deps.tokens.hash(code) }));
  await repos.recoveryCodes.replace(factorId, stored, now);
  return codes;
}

/**
 * `POST /factors/recovery-codes`: the user's set of single-use recovery codes, answered once. Needs
 * another verified factor (recovery codes stand in for a lost one, never for none:
 * `mfa_recovery_codes_sole_factor`), an aal2 session, and no set yet (`mfa_verified_factor_exists`);
 * the caps and the friendly-name rule of every enrolment hold. The factor is verified at once.
 */
export async function generateRecoveryCodes(
  deps: Deps,
  input: Caller & { readonly friendlyName?: string | undefined },
): Promise<Result<RecoveryCodeSet>> {
  const { user } = input;
  if (user.isAnonymous) return err(failures.anonymousMfa());
  if (!deps.settings.mfa.recoveryCodes.enrollEnabled) return err(failures.recoveryCodesEnrollDisabled());
  const now = deps.clock.now();
  const friendlyName = input.friendlyName || DEFAULT_RECOVERY_CODES_NAME;
  return transactionRollingBackOn(deps.store, async (repos): Promise<Result<RecoveryCodeSet>> => {
    // The user's row lock: of two parallel generations, the second finds the first's set.
    if ((await repos.users.lock(user.id)) === null) return err(failures.jwtUserMissing());
    const session = await callerSession(repos, input.sessionId);
    if (!session.ok) return session;
    const factors = await repos.factors.listByUser(user.id);
    if (factors.some((f) => f.factorType === "recovery_code")) return err(failures.recoveryCodesExist());
    if (!factors.some((f) => f.status === "verified")) return err(failures.recoveryCodesSoleFactor());
    if (session.value.aal !== "aal2") return err(failures.recoveryCodesNeedAal2());
    const allowed = await checkEnrolment(deps, repos, {
      userId: user.id,
      friendlyName,
      sessionAal: session.value.aal,
      now,
    });
    if (!allowed.ok) return allowed;
    const factor: Factor = {
      id: deps.random.uuid(),
      userId: user.id,
      friendlyName,
      factorType: "recovery_code",
      status: "verified",
      secret: null,
      phone: null,
      createdAt: now,
      updatedAt: now,
      lastChallengedAt: null,
    };
    const inserted = await repos.factors.insert(factor);
    if (inserted !== "inserted") return err(failures.factorNameConflict(friendlyName));
    const codes = await newSet(deps, repos, factor.id, now);
    await repos.audit.record({
      action: "factor_in_progress",
      actorId: user.id,
      actorUsername: user.phone || user.email || "",
      traits: { factor_id: factor.id, factor_type: factor.factorType, codes: codes.length },
      at: now,
    });
    return ok({ factor, codes });
  });
}

/**
 * `POST /factors/recovery-codes/regenerate`: a new set in place of the old one (used or not), from an
 * aal2 session; the factor keeps its id and name, and its wrong-code count and wait are cleared.
 */
export async function regenerateRecoveryCodes(deps: Deps, input: Caller): Promise<Result<RecoveryCodeSet>> {
  if (input.user.isAnonymous) return err(failures.anonymousMfa());
  if (!deps.settings.mfa.recoveryCodes.enrollEnabled) return err(failures.recoveryCodesEnrollDisabled());
  const now = deps.clock.now();
  return transactionRollingBackOn(deps.store, async (repos): Promise<Result<RecoveryCodeSet>> => {
    const session = await callerSession(repos, input.sessionId);
    if (!session.ok) return session;
    const found = await recoveryFactorOf(repos, input.user.id);
    if (found === null) return err(failures.recoveryCodesNotFound());
    if (session.value.aal !== "aal2") return err(failures.recoveryCodesNeedAal2());
    // Under the factor's lock: a verification in flight either used an old code first or finds none.
    const locked = await repos.factors.lockOwned(input.user.id, found.id);
    if (locked === null) return err(failures.recoveryCodesNotFound());
    const codes = await newSet(deps, repos, found.id, now);
    await repos.factors.setAttempts(found.id, { failedAttempts: 0, lockedUntil: null, lastTotpStep: null });
    await repos.audit.record({
      action: "factor_updated",
      actorId: input.user.id,
      actorUsername: input.user.phone || input.user.email || "",
      traits: { factor_id: found.id, factor_type: found.factorType, codes: codes.length },
      at: now,
    });
    return ok({ factor: found, codes });
  });
}

/**
 * `DELETE /factors/recovery-codes`: removes the set and its factor, from an aal2 session; the sessions
 * a recovery code raised fall back to aal1.
 */
export async function deleteRecoveryCodes(
  deps: Pick<MfaDeps, "store" | "clock">,
  input: Caller,
): Promise<Result<{ id: string }>> {
  if (input.user.isAnonymous) return err(failures.anonymousMfa());
  const now = deps.clock.now();
  return transactionRollingBackOn(deps.store, async (repos): Promise<Result<{ id: string }>> => {
    const session = await callerSession(repos, input.sessionId);
    if (!session.ok) return session;
    const factor = await recoveryFactorOf(repos, input.user.id);
    if (factor === null) return err(failures.recoveryCodesNotFound());
    if (session.value.aal !== "aal2") return err(failures.recoveryCodesNeedAal2());
    await repos.assurance.lowerRaisedBy(factor.id, "mfa/recovery_code", now);
    await repos.factors.delete(factor.id);
    await repos.audit.record({
      action: "factor_unenrolled",
      actorId: input.user.id,
      actorUsername: input.user.phone || input.user.email || "",
      traits: { factor_id: factor.id, factor_type: factor.factorType, session_id: session.value.id },
      at: now,
    });
    return ok({ id: factor.id });
  });
}

/** `GET /factors/recovery-codes` (any aal), and the admin's view: the counts, never the codes. */
export async function recoveryCodesStatus(
  deps: Pick<MfaDeps, "store">,
  input: { readonly userId: string },
): Promise<Result<RecoveryCodesStatus>> {
  const factor = await recoveryFactorOf(deps.store, input.userId);
  if (factor === null) return err(failures.recoveryCodesNotFound());
  const { total, remaining } = await deps.store.recoveryCodes.count(factor.id);
  return ok({ factorId: factor.id, total, remaining });
}
