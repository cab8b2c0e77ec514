import { failures } from "../failures.js";
import { err, type Result } from "../kernel/index.js";
import { defineGrant, type SessionTokens } from "../sessions/index.js";

/** A signed sign-in message (EIP-4361 or Sign-In-With-Solana) and the wallet's signature of it. */
export interface Web3SignInInput {
  readonly chain: string;
  readonly message: string;
  readonly signature: string;
}

/**
 * `POST /token?grant_type=web3`: sign-in with an Ethereum or Solana wallet. No chain is enabled on
 * this server: every request is refused with 422 `web3_provider_disabled`, the reference's answer
 * when both of its Web3 switches are off (and what auth-js's `signInWithWeb3` expects then).
 */
export async function signInWithWeb3(
  _deps: unknown,
  _input: Web3SignInInput,
): Promise<Result<SessionTokens>> {
  return err(failures.web3Disabled());
}

/** `POST /token?grant_type=web3`. */
export const web3Grant = defineGrant("web3", signInWithWeb3);
