/** Web3 sign-in: Sign in with Ethereum (EIP-4361). */
import type { AuthSettings } from "@authsvc/core";
import * as k from "../kinds.js";
import type { Reader } from "../reader.js";
import type { Config } from "../types.js";
import { defineVariables } from "../variable.js";
import type { SettleContext } from "./context.js";

const variable = defineVariables("Web3 sign-in");
export const variables = {
  ethereumEnabled: variable({
    key: "EXTERNAL_WEB3_ETHEREUM_ENABLED",
    kind: k.boolean,
    default: "false",
    description:
      "Sign in with Ethereum: `POST /token?grant_type=web3` with `chain: ethereum`, an EIP-4361 message and its EIP-191 signature (auth-js `signInWithWeb3`). See docs/web3.md.",
  }),
  ethereumMaximumValidityDuration: variable({
    key: "EXTERNAL_WEB3_ETHEREUM_MAXIMUM_VALIDITY_DURATION",
    kind: k.duration(1000),
    default: "10m",
    description:
      "How long before or after its `Issued At` a signed message is accepted. A message is accepted once: it is remembered for twice this long (in the database's `request_limits` table).",
  }),
};

export interface Web3Config {
  readonly ethereumEnabled: boolean;
  readonly maxValidityMs: number;
}

export const read = (r: Reader) => r.getAll(variables);

export function settle(s: ReturnType<typeof read>, _ctx: SettleContext): { web3: Web3Config } {
  return { web3: { ethereumEnabled: s.ethereumEnabled, maxValidityMs: s.ethereumMaximumValidityDuration } };
}

/** What the Web3 slice reads. */
export function web3Settings(config: Config): Pick<AuthSettings, "web3"> {
  return { web3: { ethereumEnabled: config.web3.ethereumEnabled, maxValidityMs: config.web3.maxValidityMs } };
}

declare module "../types.js" {
  interface Config {
    readonly web3: Web3Config;
  }
}
