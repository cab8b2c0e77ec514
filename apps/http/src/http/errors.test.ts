import { type FailureName, failures } from "@authsvc/core";
import { describe, expect, it } from "vitest";
import { MODULES } from "../composition/modules.js";
import { failuresOwnedBy, itAnswersItsFailures, KERNEL } from "../testing/statuses.js";
import { HttpError, statusIn, toAuthError } from "./errors.js";
import { statusTable } from "./statuses.js";

/** The status of `error` in the server's table. */
const statusOf = (error: Parameters<typeof statusIn>[1]) => statusIn(statusTable(MODULES), error);

/**
 * The status the reference gives each failure whose code no module owns (validation_failed, not_found…):
 * the kernel's. A failure whose code a module owns is pinned beside that module (its statuses.test.ts).
 */
const EXPECTED: Readonly<Partial<Record<FailureName, number>>> = {
  unexpectedFailure: 500,
  unstorableValue: 400,
  clientDocumentNotEditable: 400,
  externalCodeExchangeFailed: 500,
  externalUserFetchFailed: 500,
  badIdToken: 400,
  idTokenKeysUnavailable: 500,
  idTokenAudienceUnacceptable: 400,
  providerNotEnabled: 400,
  externalEmailMissing: 500,
  idTokenNonceBothOrNeither: 400,
  idTokenNonceMismatch: 400,
  emailRequired: 400,
  emailTooLong: 400,
  emailInvalid: 400,
  phoneInvalid: 400,
  passwordTooLong: 400,
  userNotFound: 404,
  passwordCheckUnavailable: 500,
  signupEmailOrPhone: 400,
  signupPasswordRequired: 400,
  loginEmailOrPhone: 400,
  loginEmailOrPhoneMissing: 400,
  audienceMismatch: 400,
  logoutScopeInvalid: 400,
  smsChannelUnsupported: 400,
  messageChannelInvalid: 400,
  otpChannelWithEmail: 400,
  verifyTypeUnsupported: 400,
  verifyTokenOrHash: 400,
  verifyTokenMissing: 400,
  verifyHashWithAddress: 400,
  verifyTypeRequired: 400,
  verifyLinkTokenMissing: 400,
  otpEmailOrPhone: 400,
  otpEmailOrPhoneMissing: 400,
  resendTypeMissing: 400,
  resendEmailMissing: 400,
  resendPhoneMissing: 400,
  newUserIdNotUuid: 400,
  passwordAndHash: 400,
  passwordHashInvalid: 400,
  badKeysetParameters: 400,
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
  hookFailed: 500,
  hookError: 500,
  accessTokenClaimsInvalid: 500,
  factorTypeUnsupported: 400,
  factorIssuerTooLong: 400,
  factorLabelTooLong: 400,
  factorPhoneRequired: 400,
  mfaCodeMissing: 400,
  challengeIdNotUuid: 400,
  mfaSecretUnreadable: 500,
  webauthnConfigRequired: 400,
  webauthnTypeInvalid: 400,
  webauthnResponseRequired: 400,
  passkeyNameMissing: 400,
  passkeyNameTooLong: 400,
  passkeyChallengeIdInvalid: 400,
  passkeyCredentialMissing: 400,
  oauthServerDisabled: 404,
  clientFieldInvalid: 400,
  clientIdMalformed: 400,
  clientUpdateEmpty: 400,
  clientNotConfidential: 400,
  scopeFieldInvalid: 400,
  scopeExists: 409,
  scopeNotFound: 404,
  authorizeClientIdMissing: 400,
  authorizeRedirectUriMissing: 400,
  authorizeRedirectUriUnregistered: 400,
  requestOriginUnauthorized: 400,
  authorizationNotPending: 400,
  consentActionInvalid: 400,
  consentClientIdMissing: 400,
  web3MessageTooShort: 400,
  web3MessageTooLong: 400,
  web3MessageInvalid: 400,
  web3EthereumSignatureMalformed: 400,
  web3SolanaSignatureLength: 400,
  web3SolanaSignatureNotBase64: 400,
  web3SignatureMismatch: 400,
  web3UriInsecure: 400,
  web3UriNotAllowed: 400,
  web3DomainMismatch: 400,
  web3MessageNotYetValid: 400,
  web3MessageExpired: 400,
  web3MessageTooOld: 400,
  web3MessageFromTheFuture: 400,
  web3MessageReplayed: 400,
  customProvidersDisabled: 404,
  customProviderInvalid: 400,
  customProviderDiscoveryFailed: 400,
  ssoTargetAmbiguous: 400,
  ssoTargetMissing: 400,
  samlRelayStateInvalid: 400,
  samlArtifactRefused: 400,
  samlResponseMissing: 400,
  samlResponseNotXml: 400,
  samlAssertionInvalid: 400,
  samlAssertionReplayed: 400,
  ssoTypeUnsupported: 400,
  samlMetadataBoth: 400,
  samlMetadataNone: 400,
  samlMetadataUrlInvalid: 400,
  samlMetadataUrlNotHttps: 400,
  samlMetadataInvalid: 400,
  samlNameIdFormatInvalid: 400,
  ssoFieldInvalid: 400,
};

describe("statusOf", () => {
  itAnswersItsFailures(KERNEL, EXPECTED);

  it("leaves no failure without an owner that pins its status", () => {
    const owned = [KERNEL, ...MODULES].flatMap((owner) => failuresOwnedBy(owner));
    expect(owned.sort()).toEqual(Object.keys(failures).sort());
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
