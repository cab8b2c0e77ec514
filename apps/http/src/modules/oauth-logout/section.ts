/** OpenID Connect logout: RP-initiated (`/oauth/logout`) and back-channel logout tokens. */
import * as k from "../../config/kinds.js";
import type { Reader } from "../../config/reader.js";
import type { SettleContext } from "../../config/sections/context.js";
import { defineVariables } from "../../config/variable.js";

const variable = defineVariables("OAuth logout");
export const variables = {
  backchannelInterval: variable({
    key: "OAUTH_SERVER_BACKCHANNEL_LOGOUT_INTERVAL",
    kind: k.duration(10),
    default: "1s",
    description:
      "How often each instance looks for back-channel logouts to deliver (recorded when a session bound to a client with a `backchannel_logout_uri` ends). See docs/oauth-logout.md.",
  }),
  backchannelRetryDelay: variable({
    key: "OAUTH_SERVER_BACKCHANNEL_LOGOUT_RETRY_DELAY",
    kind: k.duration(10),
    default: "5s",
    description:
      "The delay before a failed logout token (an answer other than 200 or 204, or none) is sent again; doubled at each attempt, at most an hour.",
  }),
  backchannelMaxAttempts: variable({
    key: "OAUTH_SERVER_BACKCHANNEL_LOGOUT_MAX_ATTEMPTS",
    kind: k.wholeNumber({ min: 1, max: 100 }),
    default: "8",
    description: "Attempts to deliver one logout token before it is given up (logged with its ids).",
  }),
  backchannelMaxAge: variable({
    key: "OAUTH_SERVER_BACKCHANNEL_LOGOUT_MAX_AGE",
    kind: k.duration(1000),
    default: "1h",
    description: "How long after the session ended a logout token is still tried; an older one is given up.",
  }),
  backchannelConcurrency: variable({
    key: "OAUTH_SERVER_BACKCHANNEL_LOGOUT_CONCURRENCY",
    kind: k.wholeNumber({ min: 1, max: 100 }),
    default: "4",
    description: "Logout tokens in flight to one client at once, per instance.",
  }),
  backchannelTimeout: variable({
    key: "OAUTH_SERVER_BACKCHANNEL_LOGOUT_TIMEOUT",
    kind: k.duration(100),
    default: "5s",
    description: "How long a client's `backchannel_logout_uri` has to answer one logout token.",
  }),
  allowLoopbackForTests: variable({
    key: "OAUTH_SERVER_BACKCHANNEL_LOGOUT_ALLOW_LOOPBACK_FOR_TESTS",
    kind: k.boolean,
    default: "false",
    description:
      "FOR TESTS ONLY; never in production. Lets logout tokens be POSTed over plain `http:` to loopback addresses (127.0.0.0/8, ::1, `localhost`). Private, link-local, metadata and multicast addresses stay refused either way; off, a `backchannel_logout_uri` is reached only over `https:` at a public address.",
  }),
};

export interface OAuthLogoutConfig {
  readonly backchannelIntervalMs: number;
  readonly backchannelRetryDelayMs: number;
  readonly backchannelMaxAttempts: number;
  readonly backchannelMaxAgeMs: number;
  readonly backchannelConcurrency: number;
  readonly backchannelTimeoutMs: number;
  readonly allowLoopbackForTests: boolean;
}

export const read = (r: Reader) => r.getAll(variables);

export function settle(s: ReturnType<typeof read>, ctx: SettleContext): { oauthLogout: OAuthLogoutConfig } {
  if (s.allowLoopbackForTests)
    ctx.notices.push(
      `${variables.allowLoopbackForTests.name} is on: logout tokens may be POSTed over plain http on loopback (for tests only)`,
    );
  return {
    oauthLogout: {
      backchannelIntervalMs: s.backchannelInterval,
      backchannelRetryDelayMs: s.backchannelRetryDelay,
      backchannelMaxAttempts: s.backchannelMaxAttempts,
      backchannelMaxAgeMs: s.backchannelMaxAge,
      backchannelConcurrency: s.backchannelConcurrency,
      backchannelTimeoutMs: s.backchannelTimeout,
      allowLoopbackForTests: s.allowLoopbackForTests,
    },
  };
}

declare module "../../config/shape.js" {
  interface Config {
    readonly oauthLogout: OAuthLogoutConfig;
  }
}
