import { type FailureName, failures } from "@authsvc/core";
import { describe, expect, it } from "vitest";
import { HttpError, statusOf, toAuthError } from "./errors.js";

/**
 * The status of every failure in core's catalogue, as the reference (and the routes before the
 * catalogue existed) answer it. A new failure must be added here, with the status it should answer.
 */
const EXPECTED: Readonly<Record<FailureName, number>> = {
  unexpectedFailure: 500,
  unstorableValue: 400,
  databaseUnavailable: 503,
  externalCodeExchangeFailed: 500,
  externalUserFetchFailed: 500,
  badIdToken: 400,
  idTokenKeysUnavailable: 500,
  idTokenAudienceUnacceptable: 400,
  emailRequired: 400,
  emailTooLong: 400,
  emailInvalid: 400,
  phoneInvalid: 400,
  passwordTooLong: 400,
  weakPassword: 422,
  samePassword: 422,
  emailExists: 422,
  phoneExists: 422,
  userNotFound: 404,
  passwordCheckUnavailable: 500,
  web3Disabled: 422,
  web3UnsupportedChain: 400,
  web3SolanaDisabled: 422,
  web3MessageTooShort: 400,
  web3MessageTooLong: 400,
  web3MessageInvalid: 400,
  web3SignatureMismatch: 400,
  web3UriInsecure: 400,
  web3UriNotAllowed: 400,
  web3DomainMismatch: 400,
  web3MessageTimeRefused: 400,
  web3MessageReplayed: 400,
  signupDisabled: 422,
  otpSignupDisabled: 422,
  anonymousSignInsDisabled: 422,
  emailSignupsDisabled: 400,
  phoneSignupsDisabled: 400,
  signupEmailOrPhone: 400,
  signupPasswordRequired: 400,
  userAlreadyRegistered: 400,
  emailLoginsDisabled: 400,
  emailPasswordLoginsDisabled: 422,
  phonePasswordLoginsDisabled: 422,
  phoneProviderUnsupported: 400,
  loginEmailOrPhone: 400,
  loginEmailOrPhoneMissing: 400,
  invalidCredentials: 400,
  emailNotConfirmed: 400,
  phoneNotConfirmed: 400,
  userBanned: 403,
  userBannedAtTokenGrant: 400,
  refreshTokenNotFound: 400,
  refreshTokenAlreadyUsed: 400,
  sessionExpired: 400,
  sessionInactive: 400,
  sessionRevokedByNewerLogin: 400,
  adminSessionExpired: 403,
  userSessionNotFound: 404,
  noAuthorization: 401,
  jwtUnverifiable: 403,
  jwtSubMissing: 403,
  jwtSubNotUuid: 400,
  jwtSessionIdNotUuid: 403,
  jwtUserMissing: 403,
  jwtSessionMissing: 403,
  notAdmin: 403,
  unexpectedAudience: 403,
  audienceMismatch: 400,
  captchaMissing: 400,
  captchaRejected: 400,
  grantTypeUnsupported: 400,
  logoutScopeInvalid: 400,
  emailRateLimit: 429,
  smsRateLimit: 429,
  emailTooSoon: 429,
  smsTooSoon: 429,
  emailSendFailed: 500,
  smsSendFailed: 422,
  emailNotConfigured: 500,
  otpExpired: 403,
  smsChannelUnsupported: 400,
  verifyTypeUnsupported: 400,
  verifyTokenOrHash: 400,
  verifyTokenMissing: 400,
  verifyHashWithAddress: 400,
  verifyTypeRequired: 400,
  verifyLinkTokenMissing: 400,
  otpEmailOrPhone: 400,
  otpEmailOrPhoneMissing: 400,
  magicLinkEmailMissing: 422,
  resendTypeMissing: 400,
  resendEmailMissing: 400,
  resendPhoneMissing: 400,
  reauthenticationNeeded: 400,
  reauthenticationNotValid: 422,
  reauthenticationEmailNotConfirmed: 422,
  reauthenticationPhoneNotConfirmed: 422,
  reauthenticationNoAddress: 422,
  anonymousPasswordUpdate: 422,
  userIdNotUuid: 404,
  newUserIdNotUuid: 400,
  userIdTaken: 422,
  passwordAndHash: 400,
  passwordHashInvalid: 400,
  banDurationInvalid: 400,
  paginationInvalid: 400,
  auditQueryInvalid: 400,
  linkTypeInvalid: 400,
  linkNeedsSecureEmailChange: 400,
  userWithEmailNotFound: 404,
  pkceParamsIncomplete: 400,
  codeChallengeLength: 400,
  codeChallengeCharacters: 400,
  codeChallengeMethodUnsupported: 400,
  pkceGrantIncomplete: 400,
  flowStateNotFound: 404,
  flowStateExpired: 422,
  badCodeVerifier: 400,
  noFlowStateForUser: 400,
  providerNotEnabled: 400,
  oauthStateMissing: 400,
  oauthStateInvalid: 400,
  oauthStateNotFound: 400,
  oauthStateExpired: 400,
  oauthStateOtherBrowser: 400,
  oauthCodeMissing: 400,
  oauthProviderGone: 400,
  externalEmailMissing: 500,
  multipleAccounts: 500,
  providerEmailNeedsVerification: 422,
  linkedEmailNeedsVerification: 422,
  identityAlreadyLinked: 422,
  identityLinkedToAnother: 422,
  linkingTargetMissing: 422,
  manualLinkingDisabled: 404,
  singleIdentityNotDeletable: 422,
  identityNotFound: 422,
  identityIdNotUuid: 404,
  emailConflictIdentityNotDeletable: 422,
  idTokenProviderDisabled: 400,
  idTokenNonceBothOrNeither: 400,
  idTokenNonceMismatch: 400,
  hookTimeout: 422,
  hookTimeoutAfterRetry: 422,
  hookPayloadInvalidContentType: 400,
  hookPayloadOverSizeLimit: 422,
  hookFailed: 500,
  hookError: 500,
  accessTokenClaimsInvalid: 500,
  passwordVerificationRejected: 400,
  mfaVerificationRejected: 403,
  anonymousMfa: 403,
  factorTypeUnsupported: 400,
  factorIdNotUuid: 404,
  factorNotFound: 404,
  factorNameConflict: 422,
  tooManyFactors: 422,
  enrollNeedsAal2: 403,
  unenrollNeedsAal2: 422,
  verifyNeedsAal2: 403,
  updateNeedsAal2: 401,
  linkingNeedsAal2: 403,
  factorPhoneRequired: 400,
  factorIssuerTooLong: 400,
  factorLabelTooLong: 400,
  verifiedPhoneFactorExists: 422,
  totpEnrollDisabled: 422,
  totpVerifyDisabled: 422,
  phoneEnrollDisabled: 422,
  phoneVerifyDisabled: 422,
  mfaCodeMissing: 400,
  challengeIdNotUuid: 400,
  challengeNotFound: 422,
  challengeIpMismatch: 422,
  challengeExpired: 422,
  challengeAttemptsExhausted: 422,
  factorBackoff: 429,
  totpCodeInvalid: 422,
  totpCodeReused: 422,
  phoneCodeInvalid: 422,
  mfaSecretUnreadable: 500,
};

describe("statusOf", () => {
  it("answers every failure of the catalogue with its status", () => {
    const answered = Object.fromEntries(
      Object.keys(failures).map((name) => {
        const build = failures[name as FailureName] as (
          ...args: unknown[]
        ) => ReturnType<typeof failures.userBanned>;
        return [name, statusOf(build(["x"], "y"))];
      }),
    );
    expect(answered).toEqual(EXPECTED);
  });

  it("answers a hook's error object with the hook's status, 500 when it names none or no error status", () => {
    expect(statusOf(failures.hookError(429, "Slow down"))).toBe(429);
    expect(failures.hookError(429, "Slow down").code).toBe("unknown");
    expect(statusOf(failures.hookError(undefined, "Broken"))).toBe(500);
    expect(failures.hookError(undefined, "Broken").code).toBe("unexpected_failure");
    expect(statusOf(failures.hookError(200, "Not an error status"))).toBe(500);
  });

  it("answers one code with several statuses where the reference does", () => {
    expect(statusOf(failures.userBanned())).toBe(403);
    expect(statusOf(failures.userBannedAtTokenGrant())).toBe(400);
    expect(statusOf(failures.userNotFound())).toBe(404);
    expect(statusOf(failures.userIdNotUuid())).toBe(404);
    expect(statusOf(failures.emailInvalid())).toBe(400);
  });

  it("keeps the status the HTTP layer gave its own errors", () => {
    expect(statusOf(new HttpError(405, "method_not_allowed", "Method PATCH not allowed"))).toBe(405);
    expect(statusOf(new HttpError(429, "over_request_rate_limit", "Request rate limit reached"))).toBe(429);
  });

  it("shows nothing of an unexpected fault", () => {
    const error = toAuthError(new Error("connection refused to 10.0.0.5"));
    expect({ code: error.code, message: error.message, status: statusOf(error) }).toEqual({
      code: "unexpected_failure",
      message: "Unexpected failure, please check server logs for more information",
      status: 500,
    });
  });
});
