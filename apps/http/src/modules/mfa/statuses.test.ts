import type { FailureName } from "@authsvc/core";
import { describe } from "vitest";
import { itAnswersItsFailures } from "../../testing/statuses.js";
import { mfaModule } from "./index.js";

/** The status the reference gives each failure whose code this module owns. */
const EXPECTED: Readonly<Partial<Record<FailureName, number>>> = {
  mfaVerificationRejected: 403,
  anonymousMfa: 403,
  factorIdNotUuid: 404,
  factorNotFound: 404,
  factorNameConflict: 422,
  tooManyFactors: 422,
  enrollNeedsAal2: 403,
  unenrollNeedsAal2: 422,
  verifyNeedsAal2: 403,
  linkingNeedsAal2: 403,
  verifiedPhoneFactorExists: 422,
  totpEnrollDisabled: 422,
  totpVerifyDisabled: 422,
  phoneEnrollDisabled: 422,
  phoneVerifyDisabled: 422,
  challengeNotFound: 422,
  challengeIpMismatch: 422,
  challengeExpired: 422,
  challengeAttemptsExhausted: 422,
  totpCodeInvalid: 422,
  totpCodeReused: 422,
  phoneCodeInvalid: 422,
  passkeyNeedsAal2: 403,
  // Recovery codes (the reference's recovery_codes.go and auth-js's tests of it).
  recoveryCodeFactorManaged: 422,
  recoveryCodeInvalid: 422,
  recoveryCodesEnrollDisabled: 422,
  recoveryCodesVerifyDisabled: 422,
  recoveryCodesExist: 422,
  recoveryCodesLastFactor: 422,
  recoveryCodesLocked: 429,
  recoveryCodesNeedAal2: 403,
  recoveryCodesNotFound: 404,
  recoveryCodesSoleFactor: 422,
};

describe("mfa's statuses", () => itAnswersItsFailures(mfaModule, EXPECTED));
