import type { Hono, MiddlewareHandler } from "hono";
import type { AppEnv } from "../app-env.js";
import { httpFailures } from "../http-failures.js";
import { TokenBuckets } from "./token-buckets.js";

/** Per-IP request limits (`RATE_LIMIT_*`); requests per 5 minutes per client. */
export interface RateLimits {
  /** Request header holding the client IP (`RATE_LIMIT_HEADER`); no per-IP limits without it. */
  readonly header?: string | undefined;
  /** `/token`, every grant (`RATE_LIMIT_TOKEN_REFRESH`). */
  readonly tokenPer5Min: number;
  /** `/verify`, GET and POST (`RATE_LIMIT_VERIFY`). */
  readonly verifyPer5Min: number;
  /** Each of `/otp`, `/magiclink`, `/recover`, `/resend`, `/signup` and `PUT /user` (`RATE_LIMIT_OTP`). */
  readonly otpPer5Min: number;
  /** Clock in milliseconds, for tests. */
  readonly now?: () => number;
  /** Client keys remembered per route, for tests. */
  readonly maxKeys?: number;
}

const FIVE_MINUTES_MS = 5 * 60 * 1000;

/** The reference gives every per-IP limiter a burst of 30 whatever its rate. */
const BURST = 30;

/**
 * The client key of a request: the first entry of the header's comma-separated list, so that
 * `X-Forwarded-For: client, proxy` counts against the client. Undefined when there is none.
 */
export function clientKey(value: string | undefined): string | undefined {
  const first = value?.split(",", 1)[0]?.trim();
  return first ? first : undefined;
}

/**
 * Refuses a request with `429 over_request_rate_limit` once its client has used up `buckets`. A
 * request without the header is let through, as in the reference: limiting everyone who lacks it
 * under one shared key would let a single client lock out all the others.
 */
export const limitPerClient =
  (header: string, buckets: TokenBuckets): MiddlewareHandler<AppEnv> =>
  async (c, next) => {
    const key = clientKey(c.req.header(header));
    if (key === undefined) {
      c.get("log").warn({ header }, "request has no value for the rate limit header; not rate limited");
    } else if (!buckets.take(key)) {
      throw httpFailures.requestRateLimit();
    }
    await next();
  };

/**
 * Puts the reference's per-IP limiters in front of their routes, one bucket set per route, kept in
 * this process's memory: each instance counts on its own, as the reference's do. Does nothing
 * unless a header is configured. Must be called before the routes are mounted.
 */
export function applyRateLimits(app: Hono<AppEnv>, limits: RateLimits | undefined): void {
  const header = limits?.header;
  if (limits === undefined || !header) return;
  const limiter = (perFiveMinutes: number) =>
    limitPerClient(
      header,
      new TokenBuckets({
        capacity: BURST,
        refillPerWindow: perFiveMinutes,
        windowMs: FIVE_MINUTES_MS,
        ...(limits.maxKeys !== undefined ? { maxKeys: limits.maxKeys } : {}),
        ...(limits.now !== undefined ? { now: limits.now } : {}),
      }),
    );
  app.use("/token", limiter(limits.tokenPer5Min));
  app.use("/verify", limiter(limits.verifyPer5Min));
  for (const path of ["/otp", "/magiclink", "/recover", "/resend", "/signup"]) {
    app.use(path, limiter(limits.otpPer5Min));
  }
  // Only changes to the user are limited; reading it (GET /user) is not.
  app.on("PUT", "/user", limiter(limits.otpPer5Min));
}
