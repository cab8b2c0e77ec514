import type { FailureName } from "@authsvc/core";
import { describe } from "vitest";
import { itAnswersItsFailures } from "../../testing/statuses.js";
import { securityModule } from "./index.js";

/** The status the reference gives each failure whose code this module owns. */
const EXPECTED: Readonly<Partial<Record<FailureName, number>>> = {
  weakPassword: 422,
  captchaMissing: 400,
  captchaRejected: 400,
};

describe("security's statuses", () => itAnswersItsFailures(securityModule, EXPECTED));
