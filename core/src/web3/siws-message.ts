import type { Result } from "../kernel/index.js";
import { type MessageDialect, parseSignInMessage, type SignInMessage } from "./sign-in-message.js";

/** A Sign-In with Solana message, as parsed: its address is a base58 public key. */
export type SiwsMessage = SignInMessage;

/**
 * Sign In With Solana (Phantom's SIWS, as the reference reads it): the address in base58 — only its
 * alphabet (the reference takes any letters and digits, 0 O I l included, which no key can be) — and an
 * optional `Chain ID` of `solana:mainnet`, `devnet`, `testnet` or `localnet`, or empty.
 */
export const SIWS: MessageDialect = {
  prefix: "siws",
  account: "Solana",
  address: /^[1-9A-HJ-NP-Za-km-z]{32,44}$/,
  addressProblem: "wallet address is not in base58 format",
  chainId: (value) => value === "" || /^solana:(main|dev|test|local)net$/.test(value),
};

/** Parses a Sign-In with Solana message (errors `siws: …`, as the reference's). */
export function parseSiwsMessage(raw: string): Result<SiwsMessage, string> {
  return parseSignInMessage(raw, SIWS);
}
