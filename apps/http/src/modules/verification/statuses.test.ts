import type { FailureName } from "@authsvc/core";
import { describe } from "vitest";
import { itAnswersItsFailures } from "../../testing/statuses.js";
import { verificationModule } from "./index.js";

/** The status the reference gives each failure whose code this module owns. */
const EXPECTED: Readonly<Partial<Record<FailureName, number>>> = {
  otpSignupDisabled: 422,
  emailNotConfirmed: 400,
  phoneNotConfirmed: 400,
  otpExpired: 403,
  magicLinkEmailMissing: 422,
  noFlowStateForUser: 400,
};

describe("verification's statuses", () => itAnswersItsFailures(verificationModule, EXPECTED));
