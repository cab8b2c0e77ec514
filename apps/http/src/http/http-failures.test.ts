import { describe, expect, it } from "vitest";
import { MODULES } from "../composition/modules.js";
import { statusIn } from "./errors.js";
import { statusTable } from "./statuses.js";

/** The status of `error` in the server's table. */
const statusOf = (error: Parameters<typeof statusIn>[1]) => statusIn(statusTable(MODULES), error);

import { httpFailures } from "./http-failures.js";

describe("httpFailures", () => {
  it("answers each protocol failure with its status, code and message", () => {
    const answered = [
      httpFailures.badJson("Unexpected end of JSON input"),
      httpFailures.routeNotFound(),
      httpFailures.methodNotAllowed("PATCH"),
      httpFailures.bodyTooLarge(1024),
      httpFailures.requestRateLimit(),
      httpFailures.requestTimeout(),
    ].map((error) => [statusOf(error), error.code, error.message]);
    expect(answered).toEqual([
      [400, "bad_json", "Could not parse request body as JSON: Unexpected end of JSON input"],
      [404, "not_found", "Not found"],
      [405, "method_not_allowed", "Method PATCH not allowed"],
      [413, "request_entity_too_large", "Request body too large (max 1024 bytes)"],
      [429, "over_request_rate_limit", "Request rate limit reached"],
      [504, "request_timeout", "Processing this request timed out, please retry after a moment."],
    ]);
  });
});
