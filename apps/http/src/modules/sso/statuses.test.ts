import type { FailureName } from "@authsvc/core";
import { describe } from "vitest";
import { itAnswersItsFailures } from "../../testing/statuses.js";
import { ssoModule } from "./index.js";

/** The status the reference gives each failure whose code this module owns. */
const EXPECTED: Readonly<Partial<Record<FailureName, number>>> = {
  samlDisabled: 404,
  ssoProviderNotFound: 404,
  ssoDomainNotFound: 404,
  ssoProviderDisabled: 404,
  ssoAdminProviderNotFound: 404,
  samlRelayStateNotFound: 404,
  samlRelayStateExpired: 422,
  samlIdpNotFound: 404,
  samlAssertionNoUserId: 400,
  samlAssertionNoEmail: 400,
  samlMetadataFetchFailed: 400,
  samlIdpAlreadyExists: 422,
  ssoDomainAlreadyExists: 400,
  ssoResourceIdTaken: 422,
  samlEntityIdMismatch: 400,
  userSsoManaged: 422,
};

describe("sso's statuses", () => itAnswersItsFailures(ssoModule, EXPECTED));
