import type { RequestLimiter } from "@authsvc/core/guards";
import type { RateLimiterAbstract } from "rate-limiter-flexible";
import { RateLimiterMemory, RateLimiterRes } from "./flexible-library.js";

/** One limited route family: `points` requests per client per window of `durationSec` seconds. */
export interface LimitWindow {
  /** Names the counters in the store (`<name>:<client>`), e.g. `verify`. */
  readonly name: string;
  readonly points: number;
  /** Whole seconds, at least 1 (Redis counts its expiry in seconds). */
  readonly durationSec: number;
}

/** Builds a limiter per route family over one store, and closes what the store holds open. */
export interface RequestLimiterStore {
  /** Which store counts: `postgres`, `redis` or `memory`, for logs and tests. */
  readonly kind: "postgres" | "redis" | "memory";
  limiter(window: LimitWindow): RequestLimiter;
  /** Resolves true once the store answers, false when it has not within its connect timeout. */
  ready(): Promise<boolean>;
  close(): Promise<void>;
}

/** Called when the shared store fails a request; the limiter has already fallen back to memory. */
export type StoreErrorHandler = (error: unknown) => void;

/** Options every store's limiter shares: the window, and the in-process stand-in for an outage. */
export function windowOptions(window: LimitWindow) {
  const options = { keyPrefix: window.name, points: window.points, duration: window.durationSec };
  // While the shared store is unreachable each instance counts alone, exactly as the reference
  // server always does: neither letting every request through nor refusing them all.
  return { ...options, insuranceLimiter: new RateLimiterMemory(options) };
}

/** Adapts a rate-limiter-flexible limiter to the `RequestLimiter` port. */
export function requestLimiter(limiter: RateLimiterAbstract): RequestLimiter {
  return {
    async take(clientKey) {
      try {
        await limiter.consume(clientKey);
        return true;
      } catch (refusal) {
        // The library rejects with a RateLimiterRes when over the limit, and with an Error only when
        // both the store and the in-memory insurance failed, which is a bug worth a 500.
        if (refusal instanceof RateLimiterRes) return false;
        throw refusal;
      }
    },
  };
}

/** Counts in this process only: for tests and as the insurance of the shared stores. */
export function memoryLimiterStore(): RequestLimiterStore {
  // One limiter per route family, so that every user of this store counts together, as with a database.
  const limiters = new Map<string, RequestLimiter>();
  return {
    kind: "memory",
    limiter: (window) => {
      const key = `${window.name}/${window.points}/${window.durationSec}`;
      let limiter = limiters.get(key);
      if (!limiter) {
        const options = { keyPrefix: window.name, points: window.points, duration: window.durationSec };
        limiter = requestLimiter(new RateLimiterMemory(options));
        limiters.set(key, limiter);
      }
      return limiter;
    },
    ready: async () => true,
    close: async () => {},
  };
}
