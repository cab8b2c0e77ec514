import type { FailureName } from "@authsvc/core";
import { describe } from "vitest";
import { itAnswersItsFailures } from "../../testing/statuses.js";
import { rateLimitsModule } from "./index.js";

/** The status the reference gives each failure whose code this module owns. */
const EXPECTED: Readonly<Partial<Record<FailureName, number>>> = {
  factorBackoff: 429,
};

describe("rate-limits's statuses", () => itAnswersItsFailures(rateLimitsModule, EXPECTED));
