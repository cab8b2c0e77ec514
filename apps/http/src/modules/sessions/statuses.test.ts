import type { FailureName } from "@authsvc/core";
import { describe } from "vitest";
import { itAnswersItsFailures } from "../../testing/statuses.js";
import { sessionsModule } from "./index.js";

/** The status the reference gives each failure whose code this module owns. */
const EXPECTED: Readonly<Partial<Record<FailureName, number>>> = {
  emailPasswordLoginsDisabled: 422,
  phonePasswordLoginsDisabled: 422,
  invalidCredentials: 400,
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
  oauthClientTokenRefused: 403,
  idTokenNotBearer: 403,
  firstPartyTokenRefused: 403,
  machineTokenRefused: 403,
  unexpectedAudience: 403,
  grantTypeUnsupported: 400,
  oauthSessionNeedsItsClient: 400,
  clientNotAllowedForSession: 400,
  passwordVerificationRejected: 400,
  clientCredentialsInvalid: 400,
  clientIdRequired: 400,
  clientAuthMethodMismatch: 400,
  userinfoTokenInvalid: 403,
};

describe("sessions's statuses", () => itAnswersItsFailures(sessionsModule, EXPECTED));
