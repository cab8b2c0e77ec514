import { type LimitWindow, memoryLimiterStore } from "@authsvc/adapters";
import type { RequestLimiter } from "@authsvc/core/guards";
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../app-env.js";
import { clientAddress, limitedBlock } from "../client-address.js";
import type { LimitSetting } from "../endpoint.js";
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
 * A per-client limit of `perFiveMinutes` counted as `name` in `limits`' shared store (this process's
 * memory when it has none): for the limits a route decides for itself, inside its handlers.
 */
export function perClientLimit(
  limits: RateLimits | undefined,
  name: string,
  perFiveMinutes: number,
): MiddlewareHandler<AppEnv> {
  const build = limits?.limiter ?? memoryLimiterStore().limiter;
  return limitPerClient(build(limitWindow(name, perFiveMinutes)));
}

/** The requests per 5 minutes of `setting`, or undefined when that limit is off. */
function perFiveMinutes(limits: RateLimits, setting: LimitSetting): number | undefined {
  // Unlike the reference's limits, on by default: each start stores up to ~9 KB until it expires,
  // unauthenticated, so an uncounted client could fill the database at its request rate.
  if (setting === "oauthAuthorize") return limits.oauthAuthorizePer5Min || undefined;
  if (!limits.header) return undefined;
  if (setting === "token") return limits.tokenPer5Min;
  if (setting === "verify") return limits.verifyPer5Min;
  // Each start of an external sign-in stores a flow state until its callback or expiry.
  if (setting === "authorize") return limits.authorizePer5Min;
  if (setting === "mfa") return limits.mfaPer5Min;
  if (setting === "passkey") return limits.passkeyPer5Min;
  return limits.otpPer5Min;
}

/**
 * The reference's per-IP limiters, one count per name and client, kept in the shared store so that
 * all instances count together: what an endpoint's `guards.limit` asks for (http/endpoint.ts), or
 * undefined when that limit is off. They apply only when a header is configured, but for the OAuth
 * server's authorization starts.
 */
export function rateLimiterOf(
  limits: RateLimits | undefined,
): (limit: { name: string; per5Min: LimitSetting }) => MiddlewareHandler<AppEnv> | undefined {
  if (limits === undefined) return () => undefined;
  const build = limits.limiter ?? memoryLimiterStore().limiter;
  // One limiter per name, however many endpoints count against it, over one store.
  const made = new Map<string, MiddlewareHandler<AppEnv>>();
  const limiter = (name: string, per5Min: number) => {
    const existing = made.get(name);
    if (existing) return existing;
    const handler = limitPerClient(build(limitWindow(name, per5Min)));
    made.set(name, handler);
    return handler;
  };
  return ({ name, per5Min: setting }) => {
    const per5Min = perFiveMinutes(limits, setting);
    if (per5Min === undefined) return undefined;
    const counted = limiter(name, per5Min);
    if (setting !== "token" || limits.web3Per5Min === undefined) return counted;
    // As the reference: the web3 grant has a limit of its own instead of the token one.
    const web3 = limiter("web3", limits.web3Per5Min);
    return (c, next) => (c.req.query("grant_type") === "web3" ? web3 : counted)(c, next);
  };
}
