/** The device authorization grant (RFC 8628): codes' lifetime, polling, and the limits on guessing user codes. */
import type { AuthSettings } from "@authsvc/core";
import * as k from "../../config/kinds.js";
import type { Reader } from "../../config/reader.js";
import type { Config } from "../../config/shape.js";
import { defineVariables } from "../../config/variable.js";

const variable = defineVariables("OAuth device authorization");
export const variables = {
  codeTtl: variable({
    key: "OAUTH_DEVICE_CODE_TTL",
    kind: k.duration(1000),
    default: "10m",
    description:
      "How long a device's request waits for the user (RFC 8628 `expires_in`): its user code is refused and its device code answered `expired_token` after it. At least a second. See docs/oauth-devices.md.",
  }),
  pollInterval: variable({
    key: "OAUTH_DEVICE_POLL_INTERVAL",
    kind: k.wholeNumber({ min: 1, max: 60 }),
    default: "5",
    description:
      "Seconds a device waits between polls of `/oauth/token` (RFC 8628 `interval`); a poll sooner is answered `slow_down` and the device's interval grows by 5 seconds.",
  }),
  verifyPerClient: variable({
    key: "RATE_LIMIT_OAUTH_DEVICE_VERIFY",
    kind: k.wholeNumber({ min: 1 }),
    default: "10",
    description:
      "User codes a client address may submit on the verification page (`POST /oauth/device`) per 5 minutes, right or wrong, all instances together; counted whether `RATE_LIMIT_HEADER` is set or not.",
  }),
  verifyTotal: variable({
    key: "RATE_LIMIT_OAUTH_DEVICE_VERIFY_TOTAL",
    kind: k.wholeNumber({ min: 1 }),
    default: "1000",
    description:
      "User codes the verification page accepts per 5 minutes from all addresses together: the bound on guessing spread over many addresses (docs/oauth-devices.md gives the arithmetic). Past it, every address waits.",
  }),
};

export interface OAuthDeviceConfig {
  readonly codeTtlSeconds: number;
  readonly intervalSeconds: number;
  readonly verifyPerClientPer5Min: number;
  readonly verifyTotalPer5Min: number;
}

export const read = (r: Reader) => r.getAll(variables);

export function settle(s: ReturnType<typeof read>): { oauthDevice: OAuthDeviceConfig } {
  return {
    oauthDevice: {
      codeTtlSeconds: Math.max(1, Math.round(s.codeTtl / 1000)),
      intervalSeconds: s.pollInterval,
      verifyPerClientPer5Min: s.verifyPerClient,
      verifyTotalPer5Min: s.verifyTotal,
    },
  };
}

/** The settings the use cases read. */
export function oauthDeviceSettings(config: Config): AuthSettings["oauthDevice"] {
  const { codeTtlSeconds, intervalSeconds } = config.oauthDevice;
  return { codeTtlSeconds, intervalSeconds };
}

declare module "../../config/shape.js" {
  interface Config {
    readonly oauthDevice: OAuthDeviceConfig;
  }
}
