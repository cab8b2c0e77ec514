/** The configuration the use cases read (built from the server's configuration). */
export interface AuthSettings {
  readonly siteUrl: string;
  /** Where the service is reachable from outside: links in messages point here. */
  readonly apiExternalUrl: string;
  /** `URI_ALLOW_LIST`: globs a `redirect_to` may match besides SITE_URL's host. */
  readonly uriAllowList: readonly string[];
  readonly mailer: {
    /** Seconds an email link or code stays valid (`MAILER_OTP_EXP`). */
    readonly otpExp: number;
    readonly otpLength: number;
    /** Seconds between two confirmation, or two recovery, mails to one address (`SMTP_MAX_FREQUENCY`). */
    readonly maxFrequency: number;
    /** Emails per hour over all instances (`RATE_LIMIT_EMAIL_SENT`). */
    readonly rateLimitPerHour: number;
    readonly secureEmailChange: boolean;
    /** Path of the link in each kind of mail (`MAILER_URLPATHS_<KIND>`), e.g. `/verify`. */
    readonly urlPaths: Readonly<
      Record<"confirmation" | "invite" | "recovery" | "magic_link" | "email_change", string>
    >;
  };
  readonly sms: {
    readonly otpExp: number;
    readonly otpLength: number;
    /** Seconds between two SMS to one number (`SMS_MAX_FREQUENCY`). */
    readonly maxFrequency: number;
    /** SMS per hour over all instances (`RATE_LIMIT_SMS_SENT`). */
    readonly rateLimitPerHour: number;
  };
  readonly jwt: {
    readonly exp: number;
    readonly aud: string;
    readonly issuer?: string | undefined;
    /** Role given to new users (`JWT_DEFAULT_GROUP_NAME`). */
    readonly defaultRole: string;
    readonly adminRoles: readonly string[];
  };
  readonly password: { readonly minLength: number; readonly requiredCharacters: readonly string[] };
  readonly refreshTokens: { readonly rotationEnabled: boolean; readonly reuseIntervalMs: number };
  /** The session controls (`SESSIONS_*`); see the sessions slice's `session-limits.ts`. */
  readonly sessions: SessionLimits;
  readonly signup: {
    readonly disabled: boolean;
    readonly emailEnabled: boolean;
    readonly phoneEnabled: boolean;
    readonly anonymousEnabled: boolean;
    readonly mailerAutoconfirm: boolean;
    readonly smsAutoconfirm: boolean;
    /**
     * `SECURITY_SIGNUP_HIDE_EXISTING`: a sign-up answer's `identities` is always empty, so that it never
     * tells whether the address was taken (the reference's answer tells).
     */
    readonly hideExisting: boolean;
  };
  readonly updatePasswordRequiresReauthentication: boolean;
  /** `SECURITY_MANUAL_LINKING_ENABLED`: signed-in users may link and unlink external identities. */
  readonly manualLinkingEnabled: boolean;
  readonly mfa: MfaSettings;
}

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
}

/**
 * The session controls (`SESSIONS_*`), in milliseconds; 0 turns a limit off. They are checked when a
 * session is refreshed (and when an admin token names a session), as the reference does; access tokens
 * already issued stay valid until they expire.
 */
export interface SessionLimits {
  /** `SESSIONS_TIMEBOX`: a session ends this long after it was created, however active. */
  readonly timeboxMs: number;
  /** `SESSIONS_INACTIVITY_TIMEOUT`: a session ends when not refreshed for this long. */
  readonly inactivityTimeoutMs: number;
  /** `SESSIONS_SINGLE_PER_USER`: only the user's most recently active session may be refreshed. */
  readonly singlePerUser: boolean;
}
