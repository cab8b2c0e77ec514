import type { FailureName } from "@authsvc/core";
import { describe } from "vitest";
import { itAnswersItsFailures } from "../../testing/statuses.js";
import { accountSettingsModule } from "./index.js";

/** The status the reference gives each failure whose code this module owns. */
const EXPECTED: Readonly<Partial<Record<FailureName, number>>> = {
  samePassword: 422,
  reauthenticationNeeded: 400,
  reauthenticationNotValid: 422,
  reauthenticationEmailNotConfirmed: 422,
  reauthenticationPhoneNotConfirmed: 422,
  reauthenticationNoAddress: 422,
  anonymousPasswordUpdate: 422,
  updateNeedsAal2: 401,
};

describe("account-settings's statuses", () => itAnswersItsFailures(accountSettingsModule, EXPECTED));
