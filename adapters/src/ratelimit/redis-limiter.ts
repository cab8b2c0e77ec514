import { createRequire } from "node:module";
import type * as IORedis from "ioredis";
import { RateLimiterRedis } from "./flexible-library.js";
import {
  type RequestLimiterStore,
  requestLimiter,
  type StoreErrorHandler,
  windowOptions,
} from "./flexible-limiter.js";

/**
 * Request limits counted in Redis (`REDIS_URL`), shared by every instance using it: one key per
 * route family and client, incremented with its expiry set atomically (one Lua call per request).
 */
export function redisLimiterStore(
  url: string,
  options: { namespace?: string; onStoreError?: StoreErrorHandler } = {},
): RequestLimiterStore {
  // Keys carry the namespace, so deployments (or test runs) sharing one Redis never mix their counts.
  const prefix = `authsvc:${options.namespace ?? "auth"}:rl`;
  // Required here, not imported at the top: only servers configured with REDIS_URL load the client.
  const { Redis } = createRequire(import.meta.url)("ioredis") as typeof IORedis;
  const redis = new Redis(url, {
    // Fail at once while disconnected rather than queue: the in-memory insurance then decides.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 2000,
  });
  redis.on("error", (error) => options.onStoreError?.(error));
  return {
    kind: "redis",
    limiter: (window) =>
      requestLimiter(
        new RateLimiterRedis({
          ...windowOptions(window),
          keyPrefix: `${prefix}:${window.name}`,
          storeClient: redis,
          rejectIfRedisNotReady: true,
        }),
      ),
    ready: () =>
      redis.status === "ready"
        ? Promise.resolve(true)
        : new Promise((resolve) => {
            const timer = setTimeout(() => resolve(false), 2000);
            redis.once("ready", () => {
              clearTimeout(timer);
              resolve(true);
            });
          }),
    close: async () => {
      redis.disconnect();
    },
  };
}
