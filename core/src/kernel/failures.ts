import { AuthError, type ErrorCode, HookRejection } from "./errors.js";

/**
 * The failure catalogue: every expected failure once, with its `error_code` and its message (the
 * reference's wording). Call sites use the named constructors (`failures.userBanned()`) and never
 * spell a message. The HTTP status is not core's business: `apps/http` chooses it from the code,
 * with an override for the few failures where the reference answers another status for that code.
 */
const catalogue = {
  // Faults and storage
  unexpectedFailure: [
    "unexpected_failure",
    "Unexpected failure, please check server logs for more information",
  ],
  unstorableValue: ["validation_failed", "The request contains a value that cannot be stored"],
  databaseUnavailable: ["unexpected_failure", "Database unavailable, please retry after a moment"],
  // External identity providers (the reason, never a secret, goes to the error's `cause` for logs)
  externalCodeExchangeFailed: [
    "unexpected_failure",
    (codePrefix: string) => `Unable to exchange external code: ${codePrefix}`,
  ],
  externalUserFetchFailed: ["unexpected_failure", "Error getting user profile from external provider"],
  badIdToken: ["validation_failed", "Bad ID token"],
  idTokenKeysUnavailable: ["unexpected_failure", "Unable to fetch the provider's ID token signing keys"],
  idTokenAudienceUnacceptable: [
    "validation_failed",
    (audience: readonly string[]) => `Unacceptable audience in id_token: [${audience.join(" ")}]`,
  ],
  // Addresses and passwords
  emailRequired: ["validation_failed", "An email address is required"],
  emailTooLong: ["validation_failed", "An email address is too long"],
  emailInvalid: ["validation_failed", "Unable to validate email address: invalid format"],
  phoneInvalid: ["validation_failed", "Invalid phone number format (E.164 required)"],
  passwordTooLong: ["validation_failed", (max: number) => `Password cannot be longer than ${max} characters`],
  weakPassword: ["weak_password", (sentences: readonly string[]) => sentences.join(" ")],
  samePassword: ["same_password", "New password should be different from the old password."],
  emailExists: ["email_exists", "A user with this email address has already been registered"],
  phoneExists: ["phone_exists", "Phone number already registered by another user"],
  userNotFound: ["user_not_found", "User not found"],
  // Sign-up
  signupDisabled: ["signup_disabled", "Signups not allowed for this instance"],
  otpSignupDisabled: ["otp_disabled", "Signups not allowed for otp"],
  anonymousSignInsDisabled: ["anonymous_provider_disabled", "Anonymous sign-ins are disabled"],
  emailSignupsDisabled: ["email_provider_disabled", "Email signups are disabled"],
  phoneSignupsDisabled: ["phone_provider_disabled", "Phone signups are disabled"],
  signupEmailOrPhone: [
    "validation_failed",
    "Only an email address or phone number should be provided on signup.",
  ],
  signupPasswordRequired: ["validation_failed", "Signup requires a valid password"],
  userAlreadyRegistered: ["user_already_exists", "User already registered"],
  // Sign-in and sessions
  emailLoginsDisabled: ["email_provider_disabled", "Email logins are disabled"],
  emailPasswordLoginsDisabled: ["email_provider_disabled", "Email logins are disabled"],
  phonePasswordLoginsDisabled: ["phone_provider_disabled", "Phone logins are disabled"],
  phoneProviderUnsupported: ["phone_provider_disabled", "Unsupported phone provider"],
  loginEmailOrPhone: [
    "validation_failed",
    "Only an email address or phone number should be provided on login.",
  ],
  loginEmailOrPhoneMissing: ["validation_failed", "Missing email or phone"],
  invalidCredentials: ["invalid_credentials", "Invalid login credentials"],
  emailNotConfirmed: ["email_not_confirmed", "Email not confirmed"],
  phoneNotConfirmed: ["phone_not_confirmed", "Phone not confirmed"],
  userBanned: ["user_banned", "User is banned"],
  userBannedAtTokenGrant: ["user_banned", "User is banned"],
  refreshTokenNotFound: ["refresh_token_not_found", "Invalid Refresh Token: Refresh Token Not Found"],
  refreshTokenAlreadyUsed: ["refresh_token_already_used", "Invalid Refresh Token: Already Used"],
  // Session controls (SESSIONS_*): refresh refused once a session is over, as the reference words it
  sessionExpired: ["session_expired", "Invalid Refresh Token: Session Expired"],
  sessionInactive: ["session_expired", "Invalid Refresh Token: Session Expired (Inactivity)"],
  sessionRevokedByNewerLogin: [
    "session_expired",
    "Invalid Refresh Token: Session Expired (Revoked by Newer Login)",
  ],
  adminSessionExpired: ["session_expired", "Session is no longer valid"],
  // DELETE /user/sessions/{id} (an extension): not one of the caller's sessions, or malformed
  userSessionNotFound: ["session_not_found", "Session not found"],
  noAuthorization: ["no_authorization", "This endpoint requires a valid Bearer token"],
  jwtUnverifiable: ["bad_jwt", "invalid JWT: unable to parse or verify signature, token is unverifiable"],
  jwtSubMissing: ["bad_jwt", "invalid claim: missing sub claim"],
  jwtSubNotUuid: ["bad_jwt", "invalid claim: sub claim must be a UUID"],
  jwtSessionIdNotUuid: ["bad_jwt", "invalid claim: session_id claim must be a UUID"],
  jwtUserMissing: ["user_not_found", "User from sub claim in JWT does not exist"],
  jwtSessionMissing: ["session_not_found", "Session from session_id claim in JWT does not exist"],
  notAdmin: ["not_admin", "User not allowed"],
  unexpectedAudience: ["unexpected_audience", "Token audience doesn't match request audience"],
  // GET /user answers the same mismatch as a validation failure (the reference's user.go).
  audienceMismatch: ["validation_failed", "Token audience doesn't match request audience"],
  grantTypeUnsupported: ["invalid_credentials", "unsupported_grant_type"],
  logoutScopeInvalid: ["validation_failed", (scope: string) => `Unsupported logout scope "${scope}"`],
  // Guards on requests
  captchaMissing: ["captcha_failed", "captcha protection: request disallowed (no captcha_token found)"],
  captchaRejected: [
    "captcha_failed",
    (errorCodes: readonly string[]) => `captcha protection: request disallowed (${errorCodes.join(", ")})`,
  ],
  // Messages, one-time tokens and verification
  emailRateLimit: ["over_email_send_rate_limit", "email rate limit exceeded"],
  smsRateLimit: ["over_sms_send_rate_limit", "SMS rate limit exceeded"],
  emailTooSoon: ["over_email_send_rate_limit", (seconds: number) => tooSoonMessage(seconds)],
  smsTooSoon: ["over_sms_send_rate_limit", (seconds: number) => tooSoonMessage(seconds)],
  emailSendFailed: ["email_send_failed", (kind?: string) => `Error sending ${kind ? `${kind} ` : ""}email`],
  smsSendFailed: ["sms_send_failed", (reason?: string) => `Error sending SMS${reason ? `: ${reason}` : ""}`],
  emailNotConfigured: ["email_send_failed", "Error sending email: no SMTP_HOST is configured"],
  otpExpired: ["otp_expired", "Token has expired or is invalid"],
  smsChannelUnsupported: ["validation_failed", "Invalid channel, only 'sms' is supported"],
  verifyTypeUnsupported: ["validation_failed", "Unsupported verification type"],
  verifyTokenOrHash: ["validation_failed", "Only the token or the token hash should be provided"],
  verifyTokenMissing: ["validation_failed", "Verify requires a token or a token hash"],
  verifyHashWithAddress: ["validation_failed", "Only the token_hash and type should be provided"],
  verifyTypeRequired: [
    "validation_failed",
    (allowed: readonly string[]) => `Verify requires a verification type of ${allowed.join(", ")}`,
  ],
  verifyLinkTokenMissing: ["validation_failed", "Verify requires a token"],
  otpEmailOrPhone: ["validation_failed", "Only an email address or phone number should be provided"],
  otpEmailOrPhoneMissing: ["validation_failed", "An email address or phone number is required"],
  magicLinkEmailMissing: ["validation_failed", "Password recovery requires an email"],
  resendTypeMissing: [
    "validation_failed",
    "Missing one of these types: signup, email_change, sms, phone_change",
  ],
  resendEmailMissing: ["validation_failed", "Type provided requires an email address"],
  resendPhoneMissing: ["validation_failed", "Type provided requires a phone number"],
  reauthenticationNeeded: ["reauthentication_needed", "Password update requires reauthentication"],
  reauthenticationNotValid: [
    "reauthentication_not_valid",
    "Reauthentication failed: nonce is invalid or has expired",
  ],
  reauthenticationEmailNotConfirmed: ["email_not_confirmed", "Please verify your email first."],
  reauthenticationPhoneNotConfirmed: ["phone_not_confirmed", "Please verify your phone first."],
  reauthenticationNoAddress: [
    "validation_failed",
    "Reauthentication requires the user to have an email or a phone number",
  ],
  anonymousPasswordUpdate: [
    "validation_failed",
    "Updating password of an anonymous user without an email or phone is not allowed",
  ],
  // Admin
  userIdNotUuid: ["validation_failed", "user_id must be an UUID"],
  newUserIdNotUuid: ["validation_failed", "user id must be a valid UUID"],
  userIdTaken: ["user_already_exists", "User with this id already exists"],
  passwordAndHash: ["validation_failed", "Only a password or a password hash should be provided"],
  passwordHashInvalid: ["validation_failed", "Invalid password hash format"],
  banDurationInvalid: ["validation_failed", (reason: string) => `invalid format for ban duration: ${reason}`],
  paginationInvalid: ["validation_failed", "Bad Pagination Parameters"],
  auditQueryInvalid: ["validation_failed", (query: string) => `Invalid query scope: ${query}`],
  linkTypeInvalid: [
    "validation_failed",
    (type: string) => `Invalid email action link type requested: ${type}`,
  ],
  linkNeedsSecureEmailChange: [
    "validation_failed",
    "Enable secure email change to generate link for current email",
  ],
  userWithEmailNotFound: ["user_not_found", "User with this email not found"],
  // PKCE and flow states
  pkceParamsIncomplete: ["validation_failed", "PKCE flow requires code_challenge_method and code_challenge"],
  codeChallengeLength: ["validation_failed", "code challenge has to be between 43 and 128 characters"],
  codeChallengeCharacters: [
    "validation_failed",
    "code challenge can only contain alphanumeric characters, hyphens, periods, underscores and tildes",
  ],
  codeChallengeMethodUnsupported: ["validation_failed", "code challenge method not supported"],
  pkceGrantIncomplete: [
    "validation_failed",
    "invalid request: both auth code and code verifier should be non-empty",
  ],
  flowStateNotFound: ["flow_state_not_found", "invalid flow state, no valid flow state found"],
  flowStateExpired: ["flow_state_expired", "invalid flow state, flow state has expired"],
  badCodeVerifier: ["bad_code_verifier", "code challenge does not match previously saved code verifier"],
  // External sign-in and identities
  providerNotEnabled: ["validation_failed", "Unsupported provider: provider is not enabled"],
  oauthStateMissing: ["bad_oauth_callback", "OAuth state parameter missing"],
  oauthStateInvalid: ["bad_oauth_state", "OAuth state parameter is invalid"],
  oauthStateNotFound: ["bad_oauth_state", "OAuth state not found or expired"],
  oauthStateExpired: ["bad_oauth_state", "OAuth state has expired"],
  oauthStateOtherBrowser: ["bad_oauth_state", "OAuth state was not started in this browser"],
  oauthCodeMissing: ["bad_oauth_callback", "OAuth callback with missing authorization code missing"],
  oauthProviderGone: ["oauth_provider_not_supported", "Unsupported provider: provider is not enabled"],
  externalEmailMissing: ["unexpected_failure", "Error getting user email from external provider"],
  multipleAccounts: [
    "unexpected_failure",
    "Multiple accounts with the same email address in the same linking domain detected: default",
  ],
  providerEmailNeedsVerification: [
    "provider_email_needs_verification",
    (provider: string) =>
      `Unverified email with ${provider}. A confirmation email has been sent to your ${provider} email`,
  ],
  linkedEmailNeedsVerification: [
    "email_not_confirmed",
    (provider: string) =>
      `Unverified email with ${provider}. A confirmation email has been sent to your ${provider} email`,
  ],
  identityAlreadyLinked: ["identity_already_exists", "Identity is already linked"],
  identityLinkedToAnother: ["identity_already_exists", "Identity is already linked to another user"],
  linkingTargetMissing: ["user_not_found", "Linking target user not found"],
  manualLinkingDisabled: ["manual_linking_disabled", "Manual linking is disabled"],
  singleIdentityNotDeletable: [
    "single_identity_not_deletable",
    "User must have at least 1 identity after unlinking",
  ],
  identityNotFound: ["identity_not_found", "Identity doesn't exist"],
  identityIdNotUuid: ["validation_failed", "identity_id must be an UUID"],
  emailConflictIdentityNotDeletable: [
    "email_conflict_identity_not_deletable",
    "Unable to unlink identity due to email conflict",
  ],
  idTokenProviderDisabled: ["provider_disabled", (provider: string) => `Provider ${provider} is not enabled`],
  idTokenNonceBothOrNeither: [
    "validation_failed",
    "Passed nonce and nonce in id_token should either both exist or not.",
  ],
  idTokenNonceMismatch: ["validation_failed", "Nonces mismatch"],
  // Auth hooks (reference internal/hooks): how a hook failed, or what it decided
  hookTimeout: [
    "hook_timeout",
    (seconds: number) => `Failed to reach hook within maximum time of ${Number(seconds).toFixed(6)} seconds`,
  ],
  hookTimeoutAfterRetry: ["hook_timeout_after_retry", "Failed to reach hook after maximum retries"],
  hookPayloadInvalidContentType: ["hook_payload_invalid_content_type", (detail: string) => detail],
  hookPayloadOverSizeLimit: [
    "hook_payload_over_size_limit",
    (bytes: number) => `Payload size exceeded size limit of ${bytes} bytes`,
  ],
  /** A hook that could not be run or answered something unusable; the message says which. */
  hookFailed: ["unexpected_failure", (message: string) => message],
  /** A hook's own error object (`{"error": {"http_code", "message"}}`); see `HookRejection`. */
  hookError: ["unexpected_failure", (message: string) => message],
  accessTokenClaimsInvalid: [
    "unexpected_failure",
    (problems: readonly string[]) =>
      `output claims do not conform to the expected schema: \n${problems.map((p) => `- ${p}\n`).join("")}`,
  ],
  passwordVerificationRejected: [
    "invalid_credentials",
    (message?: string) => message || "Further password verification attempts will be rejected.",
  ],
  mfaVerificationRejected: [
    "mfa_verification_rejected",
    (message?: string) => message || "Further MFA verification attempts will be rejected.",
  ],
  noFlowStateForUser: [
    "flow_state_not_found",
    "No associated flow state found. No valid flow state found for user.",
  ],
  // Multi-factor authentication (the reference's internal/api/mfa.go)
  anonymousMfa: ["no_authorization", "Anonymous user not allowed to perform these actions"],
  factorTypeUnsupported: ["validation_failed", "factor_type needs to be totp or phone"],
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
} as const satisfies Record<string, readonly [ErrorCode, string | ((...args: never[]) => string)]>;

function tooSoonMessage(seconds: number): string {
  return `For security purposes, you can only request this after ${seconds} seconds.`;
}

/** The name of a failure in the catalogue; `apps/http` keys its status overrides by it. */
export type FailureName = keyof typeof catalogue;

type Catalogue = typeof catalogue;
type Args<N extends FailureName> = Catalogue[N][1] extends (...args: infer A) => string ? A : [];

const generated = Object.fromEntries(
  Object.entries(catalogue).map(([name, [code, message]]) => [
    name,
    (...args: unknown[]) =>
      new AuthError(
        code,
        typeof message === "function" ? (message as (...a: unknown[]) => string)(...args) : message,
        undefined,
        name,
      ),
  ]),
) as { readonly [N in FailureName]: (...args: Args<N>) => AuthError };

/** Named constructors, one per failure: `failures.userBanned()`, `failures.emailTooSoon(40)`. */
export const failures = {
  ...generated,
  /** `weak_password` carries its reasons (`length`, `characters`) beside the message. */
  weakPassword: (sentences: readonly string[], reasons: readonly string[]): AuthError =>
    new AuthError(
      "weak_password",
      catalogue.weakPassword[1](sentences),
      { weak_password: { reasons } },
      "weakPassword",
    ),
  /** A hook's error object: its `http_code` (default 500) becomes the status, its message the message. */
  hookError: (httpCode: unknown, message: string): AuthError => new HookRejection(httpCode, message),
} as const;
