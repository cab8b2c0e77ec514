import type { FailureName } from "@authsvc/core";
import { describe } from "vitest";
import { itAnswersItsFailures } from "../../testing/statuses.js";
import { signupModule } from "./index.js";

/** The status the reference gives each failure whose code this module owns. */
const EXPECTED: Readonly<Partial<Record<FailureName, number>>> = {
  multipleAccounts: 422,
  emailExists: 422,
  phoneExists: 422,
  signupDisabled: 422,
  anonymousSignInsDisabled: 422,
  emailSignupsDisabled: 400,
  phoneSignupsDisabled: 400,
  userAlreadyRegistered: 400,
  emailLoginsDisabled: 400,
  phoneProviderUnsupported: 400,
};

describe("signup's statuses", () => itAnswersItsFailures(signupModule, EXPECTED));
