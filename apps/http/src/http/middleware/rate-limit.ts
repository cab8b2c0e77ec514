import { type LimitWindow, memoryLimiterStore } from "@authsvc/adapters";
import type { RequestLimiter } from "@authsvc/core";
import type { Hono, MiddlewareHandler } from "hono";
import type { AppEnv } from "../app-env.js";
import { clientAddress, limitedBlock } from "../client-address.js";
import { httpFailures } from "../http-failures.js";

/** Per-IP request limits (`RATE_LIMIT_*`); requests per 5 minutes per client. */
export interface RateLimits {
  /**
   * `RATE_LIMIT_HEADER`: per-IP limits apply only when set, as in the reference. What they count is
   * the client address (http/client-address.ts), never a header's value as the client sent it.
   */
  readonly header?: string | undefined;
  /** `/token`, every grant (`RATE_LIMIT_TOKEN_REFRESH`). */
  readonly tokenPer5Min: number;
  /** `/token?grant_type=web3`, counted instead of `tokenPer5Min` (`RATE_LIMIT_WEB3`); as any grant when absent. */
  readonly web3Per5Min?: number;
  /** `/verify`, GET and POST (`RATE_LIMIT_VERIFY`). */
  readonly verifyPer5Min: number;
  /** Each of `/otp`, `/magiclink`, `/recover`, `/resend`, `/signup` and `PUT /user` (`RATE_LIMIT_OTP`). */
  readonly otpPer5Min: number;
  /** `GET /authorize` (`RATE_LIMIT_AUTHORIZE`): every unauthenticated start stores a flow state. */
  readonly authorizePer5Min: number;
  /** Each of `/factors/<id>/challenge` and `/factors/<id>/verify` (`MFA_RATE_LIMIT_CHALLENGE_AND_VERIFY`, per minute × 5). */
  readonly mfaPer5Min?: number;
  /** `POST /passkeys/authentication/options` (`RATE_LIMIT_PASSKEY`): every start stores a challenge. */
  readonly passkeyPer5Min?: number;
  /**
   * `GET /oauth/authorize` (`RATE_LIMIT_OAUTH_AUTHORIZE`): every start stores a request for anyone who
   * asks. Counted whether `header` is set or not; 0 or absent: not counted.
   */
  readonly oauthAuthorizePer5Min?: number;
  /** Builds the limiter of one route family over the shared store; this process's memory when absent. */
  readonly limiter?: (window: LimitWindow) => RequestLimiter;
}

const FIVE_MINUTES_S = 5 * 60;

/** The reference gives every per-IP limiter a burst of 30 whatever its rate. */
export const BURST = 30;

/**
 * The window that spends `BURST` requests at the configured rate: 30 per 300 s for 30 per 5 minutes,
 * 30 per 60 s for 150. Over time a client gets exactly the configured rate and never more than 30 at
 * once from a fresh window; unlike the reference's token buckets, the 30 come back together when the
 * window ends rather than one by one (see docs/http-api.md).
 */
export function limitWindow(name: string, perFiveMinutes: number): LimitWindow {
  const durationSec = Math.max(1, Math.round((BURST * FIVE_MINUTES_S) / perFiveMinutes));
  // Above 30 a second the window cannot shrink below the store's one second: more points instead.
  const points = durationSec === 1 ? Math.max(BURST, Math.round(perFiveMinutes / FIVE_MINUTES_S)) : BURST;
  return { name, points, durationSec };
}

/**
 * Refuses a request with `429 over_request_rate_limit` once its client address has used up
 * `limiter`, counting an IPv6 client by its /64 (`limitedBlock`). The address is a validated IP in
 * one spelling (at most 45 characters), so the store's keys stay small.
 * A request without one (made in-process, without `X-Forwarded-For`) is let through: limiting all
 * of them under one shared key would let a single client lock out all the others.
 */
export const limitPerClient =
  (limiter: RequestLimiter): MiddlewareHandler<AppEnv> =>
  async (c, next) => {
    const address = clientAddress(c);
    if (address === undefined) {
      c.get("log").warn("request has no client address; not rate limited");
    } else if (!(await limiter.take(limitedBlock(address)))) {
      throw httpFailures.requestRateLimit();
    }
    await next();
  };

/**
 * Puts the reference's per-IP limiters in front of their routes, one count per route family and
 * client, kept in the shared store so that all instances count together. They apply only when a
 * header is configured, but for the OAuth server's authorization starts. Must be called before the
 * routes are mounted.
 */
export function applyRateLimits(app: Hono<AppEnv>, limits: RateLimits | undefined): void {
  if (limits === undefined) return;
  const build = limits.limiter ?? memoryLimiterStore().limiter;
  const limiter = (name: string, perFiveMinutes: number) =>
    limitPerClient(build(limitWindow(name, perFiveMinutes)));
  // Unlike the reference's limits, on by default: each start stores up to ~9 KB until it expires,
  // unauthenticated, so an uncounted client could fill the database at its request rate.
  if (limits.oauthAuthorizePer5Min)
    app.on("GET", "/oauth/authorize", limiter("oauth_authorize", limits.oauthAuthorizePer5Min));
  if (!limits.header) return;
  const token = limiter("token", limits.tokenPer5Min);
  // As the reference: the web3 grant has a limit of its own instead of the token one.
  const web3 = limits.web3Per5Min === undefined ? token : limiter("web3", limits.web3Per5Min);
  app.use("/token", (c, next) => (c.req.query("grant_type") === "web3" ? web3 : token)(c, next));
  app.use("/verify", limiter("verify", limits.verifyPer5Min));
  for (const path of ["/otp", "/magiclink", "/recover", "/resend", "/signup"]) {
    app.use(path, limiter(path.slice(1), limits.otpPer5Min));
  }
  // Only changes to the user are limited; reading it (GET /user) is not.
  app.on("PUT", "/user", limiter("user", limits.otpPer5Min));
  // Each start of an external sign-in stores a flow state until its callback or expiry.
  app.on("GET", "/authorize", limiter("authorize", limits.authorizePer5Min));
  if (limits.mfaPer5Min !== undefined) {
    app.on("POST", "/factors/:id/challenge", limiter("factor_challenge", limits.mfaPer5Min));
    app.on("POST", "/factors/:id/verify", limiter("factor_verify", limits.mfaPer5Min));
  }
  if (limits.passkeyPer5Min !== undefined)
    app.on("POST", "/passkeys/authentication/options", limiter("passkey", limits.passkeyPer5Min));
}
