import type { FailureCatalogue } from "../kernel/index.js";

/** The mfa slice's failures (composed with the others' in core/src/failures.ts). */
export const mfaFailures = {
  // Multi-factor authentication (the reference's internal/api/mfa.go)
  anonymousMfa: ["no_authorization", "Anonymous user not allowed to perform these actions"],
  factorTypeUnsupported: ["validation_failed", "factor_type needs to be totp, phone or webauthn"],
  factorIdNotUuid: ["validation_failed", "factor_id must be an UUID"],
  factorNotFound: ["mfa_factor_not_found", "Factor not found"],
  factorNameConflict: [
    "mfa_factor_name_conflict",
    (name: string) => `A factor with the friendly name "${name}" for this user already exists`,
  ],
  tooManyFactors: [
    "too_many_enrolled_mfa_factors",
    "Maximum number of verified factors reached, unenroll to continue",
  ],
  enrollNeedsAal2: ["insufficient_aal", "AAL2 required to enroll a new factor"],
  unenrollNeedsAal2: ["insufficient_aal", "AAL2 required to unenroll verified factor"],
  verifyNeedsAal2: ["insufficient_aal", "AAL2 required to verify a new factor"],
  linkingNeedsAal2: [
    "insufficient_aal",
    "AAL2 session is required to link or unlink identities when MFA is enabled.",
  ],
  updateNeedsAal2: [
    "insufficient_aal",
    "AAL2 session is required to update email or password when MFA is enabled.",
  ],
  factorIssuerTooLong: [
    "validation_failed",
    (max: number) => `issuer cannot be longer than ${max} characters once URL-encoded`,
  ],
  factorLabelTooLong: ["validation_failed", "The issuer and the email address are too long for a QR code"],
  factorPhoneRequired: ["validation_failed", "Phone number required to enroll Phone factor"],
  verifiedPhoneFactorExists: [
    "mfa_verified_factor_exists",
    "A verified phone factor already exists, unenroll the existing factor to continue",
  ],
  totpEnrollDisabled: ["mfa_totp_enroll_not_enabled", "MFA enroll is disabled for TOTP"],
  totpVerifyDisabled: ["mfa_totp_verify_not_enabled", "MFA verification is disabled for TOTP"],
  phoneEnrollDisabled: ["mfa_phone_enroll_not_enabled", "MFA enroll is disabled for Phone"],
  phoneVerifyDisabled: ["mfa_phone_verify_not_enabled", "MFA verification is disabled for Phone"],
  mfaCodeMissing: ["validation_failed", "Code needs to be non-empty"],
  challengeIdNotUuid: ["validation_failed", "challenge_id must be an UUID"],
  challengeNotFound: ["mfa_factor_not_found", "MFA factor with the provided challenge ID not found"],
  challengeIpMismatch: ["mfa_ip_address_mismatch", "Challenge and verify IP addresses mismatch."],
  challengeExpired: [
    "mfa_challenge_expired",
    (id: string) =>
      `MFA challenge ${id} has expired, verify against another challenge or create a new challenge.`,
  ],
  challengeAttemptsExhausted: [
    "mfa_challenge_expired",
    (id: string) => `MFA challenge ${id} has taken too many codes, create a new challenge.`,
  ],
  factorBackoff: [
    "over_request_rate_limit",
    (seconds: number) =>
      `Too many wrong codes for this factor: for security purposes, you can only try again after ${seconds} seconds.`,
  ],
  totpCodeInvalid: ["mfa_verification_failed", "Invalid TOTP code entered"],
  totpCodeReused: ["mfa_verification_failed", "TOTP code already used, enter the next code your app shows"],
  phoneCodeInvalid: ["mfa_verification_failed", "Invalid MFA Phone code entered"],
  mfaSecretUnreadable: ["unexpected_failure", "Database error verifying MFA TOTP secret"],
  webauthnEnrollDisabled: ["mfa_webauthn_enroll_not_enabled", "MFA enroll is disabled for WebAuthn"],
  webauthnVerifyDisabled: ["mfa_webauthn_verify_not_enabled", "MFA verification is disabled for WebAuthn"],
  webauthnConfigRequired: ["validation_failed", "WebAuthn config required"],
  webauthnTypeInvalid: ["validation_failed", "webauthn.type must be create or request"],
  webauthnResponseRequired: ["validation_failed", "webauthn.credential_response required"],
  webauthnFactorRejected: ["webauthn_verification_failed", "WebAuthn verification failed"],
  // Recovery codes (the reference's internal/api/recovery_codes.go)
  recoveryCodesEnrollDisabled: [
    "mfa_recovery_codes_enroll_not_enabled",
    "MFA enroll is disabled for recovery codes",
  ],
  recoveryCodesVerifyDisabled: [
    "mfa_recovery_codes_verify_not_enabled",
    "MFA verification is disabled for recovery codes",
  ],
  recoveryCodesNeedAal2: ["insufficient_aal", "AAL2 required to manage recovery codes"],
  recoveryCodesSoleFactor: [
    "mfa_recovery_codes_sole_factor",
    "Recovery codes cannot be the only factor: verify another factor first",
  ],
  recoveryCodesLastFactor: [
    "mfa_recovery_codes_sole_factor",
    "Recovery codes cannot be the only factor: remove them before the last other verified factor",
  ],
  recoveryCodesExist: [
    "mfa_verified_factor_exists",
    "Recovery codes already exist, regenerate them to get a new set",
  ],
  recoveryCodesNotFound: ["mfa_factor_not_found", "The user has not enrolled recovery codes"],
  recoveryCodeInvalid: ["mfa_verification_failed", "Invalid recovery code entered"],
  recoveryCodesLocked: [
    "mfa_recovery_codes_locked",
    (seconds: number) =>
      `Too many wrong recovery codes: for security purposes, you can only try again after ${seconds} seconds.`,
  ],
  recoveryCodeFactorManaged: [
    "validation_failed",
    "Recovery codes cannot be challenged or unenrolled with this endpoint, use /factors/recovery-codes",
  ],
} as const satisfies FailureCatalogue;
