import type { AuthDeps } from "@authsvc/core";
import type { CaptchaVerifier } from "@authsvc/core/guards";
import type { MiddlewareHandler } from "hono";
import type { Logger } from "pino";
import type { AppEnv } from "./app-env.js";
import type { RateLimits } from "./middleware/rate-limit.js";

/**
 * What the HTTP layer's own middleware needs, built by the composition root (or by a test); the
 * modules' routes need more (modules/module.ts, `ServerDeps`).
 */
export interface AppDeps {
  readonly logger: Logger;
  readonly version: string;
  /** The ports and settings the use cases run with. */
  readonly auth: AuthDeps;
  /** Incoming header whose value becomes the request id (`REQUEST_ID_HEADER`). */
  readonly requestIdHeader?: string | undefined;
  /**
   * Proxies in front of the server that append to `X-Forwarded-For` (`API_TRUSTED_PROXY_HOPS`); 0 or
   * absent: the connection's peer is the client.
   */
  readonly trustedProxyHops?: number;
  /** Addresses and ranges of proxies believed wherever they stand in the chain (`API_TRUSTED_PROXIES`). */
  readonly trustedProxies?: readonly string[];
  /** Extra headers allowed by CORS (`CORS_ALLOWED_HEADERS`). */
  readonly corsAllowedHeaders?: readonly string[];
  /** Longest a request may run before `504 request_timeout` (`API_MAX_REQUEST_DURATION`). */
  readonly maxRequestDurationMs?: number;
  /** Longest a client may take to send a body (`API_BODY_TIMEOUT`), named in the 408 it gets. */
  readonly bodyTimeoutMs?: number;
  /**
   * Requests to the message-sending endpoints (`/otp`, `/magiclink`, `/recover`, `/resend`) worked on
   * at once (`API_MESSAGE_CONCURRENCY`); no limit when absent or 0.
   */
  readonly messageConcurrency?: number;
  /** Per-IP request limits (`RATE_LIMIT_*`); none when absent or without a header. */
  readonly rateLimit?: RateLimits;
  /** Captcha check of sign-up, password sign-in and OTP requests (`SECURITY_CAPTCHA_*`); none when absent. */
  readonly captcha?: CaptchaVerifier | undefined;
  /** Paths the whole API is served under (`API_BASE_PATHS`); `/` and `/auth/v1` when absent. */
  readonly basePaths?: readonly string[];
  /** The request span and HTTP metrics, when telemetry is on; nothing runs for it when off. */
  readonly telemetry?: MiddlewareHandler<AppEnv> | undefined;
}
