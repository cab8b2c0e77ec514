import type { FailureName } from "@authsvc/core";
import { describe } from "vitest";
import { itAnswersItsFailures } from "../../testing/statuses.js";
import { customProvidersModule } from "./index.js";

/** The status the reference gives each failure whose code this module owns. */
const EXPECTED: Readonly<Partial<Record<FailureName, number>>> = {
  customProviderNotFound: 404,
  customProviderExists: 400,
  overCustomProviderQuota: 400,
};

describe("custom-providers's statuses", () => itAnswersItsFailures(customProvidersModule, EXPECTED));
