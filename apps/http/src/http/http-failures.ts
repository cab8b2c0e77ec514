import { httpError } from "./errors.js";

/**
 * The HTTP layer's own failures: protocol errors that no use case could return (a body that is not
 * JSON, an unknown route, a method the route does not take, limits on size, time and request rate).
 * Each one's status, code and message is written once here; domain failures are in core's catalogue.
 */
export const httpFailures = {
  badJson: (reason: string) => httpError(400, "bad_json", `Could not parse request body as JSON: ${reason}`),
  routeNotFound: () => httpError(404, "not_found", "Not found"),
  methodNotAllowed: (method: string) => httpError(405, "method_not_allowed", `Method ${method} not allowed`),
  bodyTooLarge: (maxBytes: number) =>
    httpError(413, "request_entity_too_large", `Request body too large (max ${maxBytes} bytes)`),
  // 408 as RFC 9110 §15.5.9 has it; the code is the reference's own for a request out of time.
  bodyTimeout: (timeoutMs: number | undefined) =>
    httpError(
      408,
      "request_timeout",
      `Request body not received in time${timeoutMs === undefined ? "" : ` (${timeoutMs / 1000} s)`}`,
    ),
  bodyEndedEarly: () =>
    httpError(400, "bad_json", "Could not parse request body as JSON: the body ended early"),
  requestRateLimit: () => httpError(429, "over_request_rate_limit", "Request rate limit reached"),
  // The reference's code for a fault the client may retry (as a database outage is answered).
  serverBusy: () => httpError(503, "unexpected_failure", "Server busy, please retry after a moment"),
  requestTimeout: () =>
    httpError(504, "request_timeout", "Processing this request timed out, please retry after a moment."),
} as const;
