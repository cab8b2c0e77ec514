import type { Config } from "./types.js";

/**
 * The request-limit store is only used by the per-IP limits, which `RATE_LIMIT_HEADER` turns on
 * (http/middleware/rate-limit.ts): a Redis URL without it looks like shared limits and counts nothing.
 * `setAs` is the name the URL was set under (the variable or an alias such as `REDIS_URL`).
 */
export function rateLimitStoreWarnings(
  config: Pick<Config, "rateLimit">,
  setAs: string | undefined,
): string[] {
  const { redisUrl, header } = config.rateLimit;
  if (redisUrl === undefined || header !== undefined) return [];
  return [
    `${setAs ?? "AUTHSVC_RATE_LIMIT_REDIS_URL"} is set but AUTHSVC_RATE_LIMIT_HEADER is not: the per-IP request limits are off, so nothing is counted in Redis; set AUTHSVC_RATE_LIMIT_HEADER (e.g. X-Forwarded-For) to turn them on`,
  ];
}
