import type { FailureName } from "@authsvc/core";
import { describe } from "vitest";
import { itAnswersItsFailures } from "../../testing/statuses.js";
import { oauthDeviceModule } from "./index.js";

/** RFC 8628 §3.5's error words, answered as OAuth errors with 400 (RFC 6749 §5.2). */
const EXPECTED: Readonly<Partial<Record<FailureName, number>>> = {
  deviceAuthorizationPending: 400,
  deviceSlowDown: 400,
  deviceCodeExpired: 400,
};

describe("oauth-device's statuses", () => itAnswersItsFailures(oauthDeviceModule, EXPECTED));
