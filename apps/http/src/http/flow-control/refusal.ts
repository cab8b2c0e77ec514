import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../app-env.js";
import { errorResponse } from "../errors.js";
import { httpFailures } from "../http-failures.js";
import { incomingOf } from "../incoming.js";

/**
 * Stamped on a Node request the admission queue refused (server.ts): the `Retry-After` seconds to
 * answer with. The app answers it (below) rather than the server, so the refusal has the request id,
 * the API version's body shape, CORS headers and its log line like every other answer.
 */
const REFUSED = Symbol("authsvc.admissionRefused");
type Stamped = { [REFUSED]?: number };

/** Marks `request` as refused by the admission queue, to be answered 503 with `Retry-After: retryAfterSeconds`. */
export function markRefused(request: object, retryAfterSeconds: number): void {
  (request as Stamped)[REFUSED] = retryAfterSeconds;
}

/** Answers a request the admission queue refused: 503, `Retry-After`, the JSON error of the API version asked for. */
export function answerRefused(): MiddlewareHandler<AppEnv> {
  return (c, next) => {
    const retryAfter = (incomingOf(c) as Stamped | undefined)?.[REFUSED];
    if (retryAfter === undefined) return next();
    c.header("Retry-After", String(retryAfter));
    return Promise.resolve(errorResponse(c, httpFailures.serverBusy()));
  };
}
