/** Multi-factor authentication (`MFA_*`). */
export interface MfaSettings {
  /** Seconds a challenge may be verified after it was made (`MFA_CHALLENGE_EXPIRY_DURATION`). */
  readonly challengeExpiry: number;
  /** Seconds an unverified factor lives before a new enrolment removes it (`MFA_FACTOR_EXPIRY_DURATION`). */
  readonly factorExpiry: number;
  /** Factors of one user, verified or not (`MFA_MAX_ENROLLED_FACTORS`). */
  readonly maxEnrolledFactors: number;
  /** Verified factors of one user (`MFA_MAX_VERIFIED_FACTORS`). */
  readonly maxVerifiedFactors: number;
  readonly totp: { readonly enrollEnabled: boolean; readonly verifyEnabled: boolean };
  readonly phone: {
    readonly enrollEnabled: boolean;
    readonly verifyEnabled: boolean;
    readonly otpLength: number;
    /** Seconds between two challenges of one phone factor (`MFA_PHONE_MAX_FREQUENCY`). */
    readonly maxFrequency: number;
    /** The text; `{{ .Code }}` becomes the code (`MFA_PHONE_TEMPLATE`). */
    readonly template: string;
  };
  /** Single-use recovery codes (`MFA_RECOVERY_CODES_*`). */
  readonly recoveryCodes: {
    readonly enrollEnabled: boolean;
    readonly verifyEnabled: boolean;
    /** Codes in a set. */
    readonly count: number;
  };
}

/** The settings of the MFA slice, as they appear in `AuthSettings`. */
export interface MfaSliceSettings {
  readonly mfa: MfaSettings;
}
