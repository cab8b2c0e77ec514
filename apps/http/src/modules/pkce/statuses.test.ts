import type { FailureName } from "@authsvc/core";
import { describe } from "vitest";
import { itAnswersItsFailures } from "../../testing/statuses.js";
import { pkceModule } from "./index.js";

/** The status the reference gives each failure whose code this module owns. */
const EXPECTED: Readonly<Partial<Record<FailureName, number>>> = {
  flowStateNotFound: 404,
  flowStateExpired: 422,
  badCodeVerifier: 400,
};

describe("pkce's statuses", () => itAnswersItsFailures(pkceModule, EXPECTED));
