import type { FailureName } from "@authsvc/core";
import { describe } from "vitest";
import { itAnswersItsFailures } from "../../testing/statuses.js";
import { passkeysModule } from "./index.js";

/** The status the reference gives each failure whose code this module owns. */
const EXPECTED: Readonly<Partial<Record<FailureName, number>>> = {
  webauthnEnrollDisabled: 422,
  webauthnVerifyDisabled: 422,
  webauthnFactorRejected: 400,
  passkeyDisabled: 404,
  passkeySsoUser: 422,
  passkeyAnonymous: 403,
  tooManyPasskeys: 422,
  webauthnChallengeNotFound: 400,
  webauthnChallengeExpired: 400,
  webauthnCredentialInvalid: 400,
  webauthnVerificationFailed: 400,
  webauthnCredentialExists: 422,
  passkeyNotFound: 404,
};

describe("passkeys's statuses", () => itAnswersItsFailures(passkeysModule, EXPECTED));
