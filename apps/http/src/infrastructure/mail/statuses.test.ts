import type { FailureName } from "@authsvc/core";
import { describe } from "vitest";
import { itAnswersItsFailures } from "../../testing/statuses.js";
import { mailModule } from "./index.js";

/** The status the reference gives each failure whose code this module owns. */
const EXPECTED: Readonly<Partial<Record<FailureName, number>>> = {
  emailRateLimit: 429,
  emailTooSoon: 429,
  emailSendFailed: 500,
  emailNotConfigured: 500,
};

describe("mail's statuses", () => itAnswersItsFailures(mailModule, EXPECTED));
