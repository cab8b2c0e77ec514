import { setTimeout as sleep } from "node:timers/promises";
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../app-env.js";
import { waitAside } from "../flow-control/index.js";

/**
 * The steps answers are aligned to on the endpoints that must not reveal whether an address has an
 * account. Their use cases already do the same work either way (mail follows the answer), but the
 * database's work still differs by a few milliseconds (a lookup that finds a row, a commit that has
 * something to flush), and other requests' work adds noise a caller can average out. Sign-up hashes
 * the password on both paths: its step is longer than a hash.
 */
export const UNIFORM_LATENCY_STEP_MS = 50;
export const UNIFORM_LATENCY_SIGNUP_STEP_MS = 100;

/**
 * Answers at the next multiple of `stepMs` since the request began: two answers whose work differs by
 * less than a step take the same time. Costs each request at most one step of waiting (no CPU, no
 * connection held).
 */
export const uniformLatency =
  (stepMs = UNIFORM_LATENCY_STEP_MS): MiddlewareHandler<AppEnv> =>
  async (c, next) => {
    const started = performance.now();
    try {
      await next();
    } finally {
      const elapsed = performance.now() - started;
      const wait = Math.ceil(elapsed / stepMs) * stepMs - elapsed;
      // The wait is not work: the request's admission slot goes to others meanwhile.
      if (wait > 0) await waitAside(c, () => sleep(wait));
    }
  };
