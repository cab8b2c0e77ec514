/** Web3 sign-in: Sign in with Ethereum (EIP-4361) and Sign in with Solana (SIWS). */
import type { AuthSettings } from "@authsvc/core";
import * as k from "../../config/kinds.js";
import type { Reader } from "../../config/reader.js";
import type { SettleContext } from "../../config/sections/context.js";
import type { Config } from "../../config/shape.js";
import { defineVariables } from "../../config/variable.js";

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
      "How long before or after its `Issued At` a signed Ethereum message is accepted. A message is accepted once: it is remembered for twice the longer of the two chains' durations (in the database's `request_limits` table).",
  }),
  solanaEnabled: variable({
    key: "EXTERNAL_WEB3_SOLANA_ENABLED",
    kind: k.boolean,
    default: "false",
    description:
      "Sign in with Solana: `POST /token?grant_type=web3` with `chain: solana`, a Sign-In-With-Solana message and its Ed25519 signature in base64 (auth-js `signInWithWeb3`). See docs/web3.md.",
  }),
  solanaMaximumValidityDuration: variable({
    key: "EXTERNAL_WEB3_SOLANA_MAXIMUM_VALIDITY_DURATION",
    kind: k.duration(1000),
    default: "10m",
    description:
      "How long before or after its `Issued At` a signed Solana message is accepted (remembered as the Ethereum ones are).",
  }),
};

export interface Web3ChainConfig {
  readonly enabled: boolean;
  readonly maxValidityMs: number;
}

export interface Web3Config {
  readonly ethereum: Web3ChainConfig;
  readonly solana: Web3ChainConfig;
}

export const read = (r: Reader) => r.getAll(variables);

export function settle(s: ReturnType<typeof read>, _ctx: SettleContext): { web3: Web3Config } {
  return {
    web3: {
      ethereum: { enabled: s.ethereumEnabled, maxValidityMs: s.ethereumMaximumValidityDuration },
      solana: { enabled: s.solanaEnabled, maxValidityMs: s.solanaMaximumValidityDuration },
    },
  };
}

/** What the Web3 slice reads. */
export function web3Settings(config: Config): Pick<AuthSettings, "web3"> {
  return { web3: { ethereum: { ...config.web3.ethereum }, solana: { ...config.web3.solana } } };
}

declare module "../../config/shape.js" {
  interface Config {
    readonly web3: Web3Config;
  }
}
