import type { FailureName } from "@authsvc/core";
import { describe } from "vitest";
import { itAnswersItsFailures } from "../../testing/statuses.js";
import { smsModule } from "./index.js";

/** The status the reference gives each failure whose code this module owns. */
const EXPECTED: Readonly<Partial<Record<FailureName, number>>> = {
  smsRateLimit: 429,
  smsTooSoon: 429,
  smsSendFailed: 422,
};

describe("sms's statuses", () => itAnswersItsFailures(smsModule, EXPECTED));
