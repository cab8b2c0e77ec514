import type { Config } from "../../config/shape.js";

/**
 * The request-limit store counts the per-IP limits, which `RATE_LIMIT_HEADER` turns on
 * (http/middleware/rate-limit.ts), and the OAuth server's authorization starts, which are counted
 * without it: a Redis URL without the header looks like shared limits and counts little or nothing.
 * `setAs` is the name the URL was set under (the variable or an alias such as `REDIS_URL`).
 */
export function rateLimitStoreWarnings(
  config: Pick<Config, "rateLimit" | "oauthServer">,
  setAs: string | undefined,
): string[] {
  const { redisUrl, header, oauthAuthorizePer5Min } = config.rateLimit;
  if (redisUrl === undefined || header !== undefined) return [];
  const counted =
    config.oauthServer.enabled && oauthAuthorizePer5Min > 0
      ? "so only GET /oauth/authorize (AUTHSVC_RATE_LIMIT_OAUTH_AUTHORIZE) is counted in Redis"
      : "so nothing is counted in Redis";
  return [
    `${setAs ?? "AUTHSVC_RATE_LIMIT_REDIS_URL"} is set but AUTHSVC_RATE_LIMIT_HEADER is not: the per-IP request limits are off, ${counted}; set AUTHSVC_RATE_LIMIT_HEADER (e.g. X-Forwarded-For) to turn them on`,
  ];
}
