import type { Factor } from "../../accounts/index.js";
import { failures } from "../../failures.js";
import { err, isUuid, ok, type Result } from "../../kernel/index.js";
import type { MfaDeps, MfaRepositories } from "../deps.js";

/** The `amr` method a verified factor of this type adds to its session. */
export const amrMethodOf = (factor: Pick<Factor, "factorType">): string => AMR_METHODS[factor.factorType];

const AMR_METHODS: Readonly<Record<Factor["factorType"], string>> = {
  totp: "totp",
  phone: "mfa/phone",
  webauthn: "mfa/webauthn",
  recovery_code: "mfa/recovery_code",
};

/**
 * The reference's `validateFactors` before an enrolment: abandoned enrolments (unverified past
 * `MFA_FACTOR_EXPIRY_DURATION`) go; the friendly name must be new for the user; the caps on
 * enrolled and verified factors hold; and a user who already has a verified factor needs an aal2
 * session to add another one.
 */
export async function checkEnrolment(
  deps: Pick<MfaDeps, "settings">,
  repos: MfaRepositories,
  input: { userId: string; friendlyName: string; sessionAal: "aal1" | "aal2"; now: Date },
): Promise<Result<true>> {
  const { mfa } = deps.settings;
  await repos.factors.deleteUnverifiedBefore(
    input.userId,
    new Date(input.now.getTime() - mfa.factorExpiry * 1000),
  );
  const factors = await repos.factors.listByUser(input.userId);
  if (factors.some((f) => f.friendlyName === input.friendlyName)) {
    return err(failures.factorNameConflict(input.friendlyName));
  }
  const verified = factors.filter((f) => f.status === "verified").length;
  if (factors.length >= mfa.maxEnrolledFactors || verified >= mfa.maxVerifiedFactors) {
    return err(failures.tooManyFactors());
  }
  if (verified > 0 && input.sessionAal !== "aal2") return err(failures.enrollNeedsAal2());
  return ok(true);
}

/** The factor `factorId` of `userId`: 404 `mfa_factor_not_found` when it is not theirs or not there. */
export async function ownedFactor(
  repos: Pick<MfaRepositories, "factors">,
  userId: string,
  factorId: string,
): Promise<Result<Factor>> {
  if (!isUuid(factorId)) return err(failures.factorIdNotUuid());
  const factor = await repos.factors.findOwned(userId, factorId);
  return factor === null ? err(failures.factorNotFound()) : ok(factor);
}

/** The verify switch of the factor's type (`MFA_<TYPE>_VERIFY_ENABLED`), which challenges obey too. */
export function verifyEnabled(
  deps: { readonly settings: Pick<MfaDeps["settings"], "mfa" | "webauthn"> },
  factor: Factor,
): Result<true> {
  const { mfa } = deps.settings;
  // A recovery code answers no challenge: it is verified at /factors/recovery-codes/verify.
  if (factor.factorType === "recovery_code") return err(failures.recoveryCodeFactorManaged());
  if (factor.factorType === "totp")
    return mfa.totp.verifyEnabled ? ok(true) : err(failures.totpVerifyDisabled());
  if (factor.factorType === "webauthn")
    return deps.settings.webauthn.mfa.verifyEnabled ? ok(true) : err(failures.webauthnVerifyDisabled());
  return mfa.phone.verifyEnabled ? ok(true) : err(failures.phoneVerifyDisabled());
}
