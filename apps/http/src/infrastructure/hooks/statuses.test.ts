import type { FailureName } from "@authsvc/core";
import { describe } from "vitest";
import { itAnswersItsFailures } from "../../testing/statuses.js";
import { hooksModule } from "./index.js";

/** The status the reference gives each failure whose code this module owns. */
const EXPECTED: Readonly<Partial<Record<FailureName, number>>> = {
  hookTimeout: 422,
  hookTimeoutAfterRetry: 422,
  hookPayloadInvalidContentType: 400,
  hookPayloadOverSizeLimit: 422,
};

describe("hooks's statuses", () => itAnswersItsFailures(hooksModule, EXPECTED));
