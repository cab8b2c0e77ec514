import type { FailureName } from "@authsvc/core";
import { describe } from "vitest";
import { itAnswersItsFailures } from "../../testing/statuses.js";
import { oauthServerModule } from "./index.js";

/** The status the reference gives each failure whose code this module owns. */
const EXPECTED: Readonly<Partial<Record<FailureName, number>>> = {
  dynamicRegistrationDisabled: 403,
  clientNotFound: 404,
  authorizeClientNotFound: 400,
  authorizeRequestInvalid: 400,
  logoutRequestInvalid: 400,
  authorizeGrantTypeMissing: 400,
  authorizeResourceNotAllowed: 400,
  authorizationPathMissing: 500,
  authorizationNotFound: 404,
  authorizationExpired: 404,
  consentNotFound: 404,
  tokenGrantTypeMissing: 400,
  tokenGrantTypeUnsupported: 400,
  tokenCodeMissing: 400,
  tokenRefreshTokenMissing: 400,
  tokenTokenMissing: 400,
  codeInvalid: 400,
  codeExpired: 400,
  codeOfAnotherClient: 400,
  codeRedirectUriMismatch: 400,
  codeResourceMismatch: 400,
  codeVerifierMissing: 400,
  codeVerifierWrong: 400,
  codeUserGone: 400,
  codeUserBanned: 400,
  refreshTokenInvalid: 400,
  refreshOfAnotherClient: 400,
  refreshDpopKeyMismatch: 400,
  refreshOfFirstPartySession: 400,
  idTokenKeyMissing: 500,
  introspectionNeedsConfidentialClient: 400,
  // RFC 9126: authsvc's own (the reference has no pushed requests).
  pushedRequestUriInvalid: 400,
  pushedRequestRequired: 400,
  pushedRequestClientMismatch: 400,
  pushedRequestRedirectUriInvalid: 400,
  pushedRequestUriPushed: 400,
  pushedRequestObjectUnsupported: 400,
  // The device grant's failures in the OAuth server's words (modules/oauth-device).
  deviceGrantTypeMissing: 400,
  deviceCodeMissing: 400,
  deviceCodeInvalid: 400,
  deviceCodeOfAnotherClient: 400,
  deviceCodeSpent: 400,
  deviceAccessDenied: 400,
  userCodeInvalid: 404,
  clientDocumentRefused: 400,
  clientDocumentUnavailable: 400,
};

describe("oauth-server's statuses", () => itAnswersItsFailures(oauthServerModule, EXPECTED));
