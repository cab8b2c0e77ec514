import type { Result } from "../kernel/index.js";
import { type MessageDialect, parseSignInMessage, type SignInMessage } from "./sign-in-message.js";

/** An EIP-4361 (Sign-In with Ethereum) message, as parsed: its address is `0x` and 40 hex digits. */
export type SiweMessage = SignInMessage;

/** EIP-4361: a `0x` address of any case, an optional positive integer `Chain ID`. */
export const SIWE: MessageDialect = {
  prefix: "siwe",
  account: "Ethereum",
  address: /^0x[a-fA-F0-9]{40}$/,
  addressProblem: "wallet address is not a valid Ethereum address",
  chainId: (value) => /^[1-9]\d{0,15}$/.test(value),
};

/** Parses an EIP-4361 message (errors `siwe: …`, as the reference's). */
export function parseSiweMessage(raw: string): Result<SiweMessage, string> {
  return parseSignInMessage(raw, SIWE);
}
