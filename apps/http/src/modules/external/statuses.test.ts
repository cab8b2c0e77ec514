import type { FailureName } from "@authsvc/core";
import { describe } from "vitest";
import { itAnswersItsFailures } from "../../testing/statuses.js";
import { externalModule } from "./index.js";

/** The status the reference gives each failure whose code this module owns. */
const EXPECTED: Readonly<Partial<Record<FailureName, number>>> = {
  oauthStateMissing: 400,
  oauthStateInvalid: 400,
  oauthStateNotFound: 400,
  oauthStateExpired: 400,
  oauthStateOtherBrowser: 400,
  oauthCodeMissing: 400,
  oauthProviderGone: 400,
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
};

describe("external's statuses", () => itAnswersItsFailures(externalModule, EXPECTED));
