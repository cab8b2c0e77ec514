/** Rate limits: per-IP request limits and send caps, both counted across all instances. */
import * as k from "../../config/kinds.js";
import type { Reader } from "../../config/reader.js";
import type { Config } from "../../config/shape.js";
import { defineVariables } from "../../config/variable.js";
import { clientAddressWarnings } from "./client-address-warnings.js";
import { rateLimitStoreWarnings } from "./store-warnings.js";

const variable = defineVariables("Rate limits");
export const variables = {
  header: variable({
    key: "RATE_LIMIT_HEADER",
    kind: k.headerName,
    description:
      "Turns the per-IP request limits below on, as in the reference (e.g. `X-Forwarded-For`). Unset: no per-IP limit applies. What they count is the client address found as `API_TRUSTED_PROXY_HOPS` says (the connection's peer by default), never the header's first entry, which the client writes. The header named is not read (another name than `X-Forwarded-For`, such as `CF-Connecting-IP`, is warned about at start): see docs/http-api.md, Differences, for moving such a configuration.",
  }),
  redisUrl: variable({
    key: "RATE_LIMIT_REDIS_URL",
    aliases: ["AUTHSVC_REDIS_URL", "REDIS_URL"],
    kind: k.redisUrl,
    computedDefault: "unset: counted in the database",
    description:
      "Redis that counts the per-IP request limits for all instances. Unset, they are counted in the database (table `request_limits` in `DB_NAMESPACE`). While the store cannot be reached each instance counts alone, as the reference server always does.",
  }),
  tokenPer5Min: variable({
    key: "RATE_LIMIT_TOKEN_REFRESH",
    kind: k.wholeNumber({ min: 1 }),
    default: "150",
    description:
      "`/token` requests per 5 minutes per client IP, all instances together, at most 30 at once (see docs/http-api.md).",
  }),
  web3Per5Min: variable({
    key: "RATE_LIMIT_WEB3",
    kind: k.wholeNumber({ min: 1 }),
    default: "30",
    description:
      "`POST /token?grant_type=web3` requests per 5 minutes per client IP, all instances together, at most 30 at once; counted instead of `RATE_LIMIT_TOKEN_REFRESH` for that grant.",
  }),
  verifyPer5Min: variable({
    key: "RATE_LIMIT_VERIFY",
    kind: k.wholeNumber({ min: 1 }),
    default: "30",
    description:
      "`/verify` requests per 5 minutes per client IP, all instances together, at most 30 at once.",
  }),
  otpPer5Min: variable({
    key: "RATE_LIMIT_OTP",
    kind: k.wholeNumber({ min: 1 }),
    default: "30",
    description:
      "Requests per 5 minutes per client IP to each of `/otp`, `/magiclink`, `/recover`, `/resend`, `/signup` and `PUT /user`, all instances together, at most 30 at once.",
  }),
  authorizePer5Min: variable({
    key: "RATE_LIMIT_AUTHORIZE",
    kind: k.wholeNumber({ min: 1 }),
    default: "30",
    description:
      "`GET /authorize` requests (external sign-in starts) per 5 minutes per client IP, all instances together, at most 30 at once: each stores a flow state until its callback or expiry.",
  }),
  oauthAuthorizePer5Min: variable({
    key: "RATE_LIMIT_OAUTH_AUTHORIZE",
    kind: k.wholeNumber(),
    default: "60",
    description:
      "`GET /oauth/authorize` requests (OAuth server authorization starts) per 5 minutes per client IP, all instances together, at most 30 at once; 0 counts none. Applied whether `RATE_LIMIT_HEADER` is set or not: each start stores a request for anyone who asks, until it expires. Behind a proxy, set `API_TRUSTED_PROXY_HOPS`, or every client shares the proxy's count.",
  }),
  emailSent: variable({
    key: "RATE_LIMIT_EMAIL_SENT",
    kind: k.wholeNumber(),
    default: "30",
    description:
      "Emails per hour, all instances together; 0 blocks sending. Not applied with mailer autoconfirm.",
  }),
  smsSent: variable({
    key: "RATE_LIMIT_SMS_SENT",
    kind: k.wholeNumber(),
    default: "30",
    description: "SMS per hour, all instances together; 0 blocks sending. Not applied with SMS autoconfirm.",
  }),
};

export interface RateLimitConfig {
  /** Header whose value keys per-IP limits; none when undefined. */
  readonly header: string | undefined;
  /** Redis counting the per-IP limits; the database when undefined. */
  readonly redisUrl: string | undefined;
  /** Emails per hour, across all instances. */
  readonly emailSent: number;
  /** SMS per hour, across all instances. */
  readonly smsSent: number;
  /** Per-IP `/token` requests per 5 minutes, across all instances. */
  readonly tokenPer5Min: number;
  /** Per-IP `/token?grant_type=web3` requests per 5 minutes, across all instances. */
  readonly web3Per5Min: number;
  /** Per-IP `/verify` requests per 5 minutes, across all instances. */
  readonly verifyPer5Min: number;
  /** Per-IP requests per 5 minutes to each OTP-sending route and `PUT /user`, across all instances. */
  readonly otpPer5Min: number;
  /** Per-IP `GET /authorize` requests per 5 minutes, across all instances. */
  readonly authorizePer5Min: number;
  /** Per-IP `GET /oauth/authorize` requests per 5 minutes, across all instances, header or not; 0: none. */
  readonly oauthAuthorizePer5Min: number;
}

export const read = (r: Reader) => r.getAll(variables);

export function settle(values: ReturnType<typeof read>): { rateLimit: RateLimitConfig } {
  return { rateLimit: { ...values } };
}

/** Per-IP limits that would not count the client the operator meant, or not at all. */
export const warnings = (config: Config, r: Reader): string[] => [
  ...clientAddressWarnings(config),
  ...rateLimitStoreWarnings(config, r.source(variables.redisUrl)?.name),
];

declare module "../../config/shape.js" {
  interface Config {
    readonly rateLimit: RateLimitConfig;
  }
}
