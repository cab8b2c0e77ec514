import type { FailureName } from "@authsvc/core";
import { describe } from "vitest";
import { itAnswersItsFailures } from "../../testing/statuses.js";
import { adminModule } from "./index.js";

/** The status the reference gives each failure whose code this module owns. */
const EXPECTED: Readonly<Partial<Record<FailureName, number>>> = {
  clientTokenNotAdmin: 403,
  machineTokenNotAdmin: 403,
  notAdmin: 403,
  userIdNotUuid: 404,
  userIdTaken: 422,
};

describe("admin's statuses", () => itAnswersItsFailures(adminModule, EXPECTED));
