import type { MiddlewareHandler } from "hono";
import pLimit from "p-limit";
import type { AppEnv } from "../app-env.js";
import { asideOf, requestTimedOut } from "../flow-control/index.js";

/**
 * Lets at most `max` of the requests it guards run at once; the rest wait in arrival order. Waiting
 * here costs nothing but memory, whereas waiting on the database pool would put every other request
 * behind the burst. A request whose deadline passed while it waited is not started at all (it has been
 * answered 504 already). `max` 0 turns the limit off.
 */
export function concurrencyLimit(max: number): MiddlewareHandler<AppEnv> {
  if (max <= 0) return (_c, next) => next();
  const limit = pLimit(max);
  return async (c, next) => {
    const aside = asideOf(c);
    if (!aside) return limit(() => (requestTimedOut(c) ? undefined : next()));
    // Waiting for the turn is not work: the request's admission slot goes to others meanwhile.
    let started: () => void = () => {};
    let finished: () => void = () => {};
    const turn = new Promise<void>((resolve) => {
      started = resolve;
    });
    const done = new Promise<void>((resolve) => {
      finished = resolve;
    });
    const held = limit(() => {
      started();
      return done;
    });
    await aside(() => turn);
    try {
      if (!requestTimedOut(c)) await next();
    } finally {
      finished();
      await held;
    }
  };
}
