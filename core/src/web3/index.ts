/** Web3: sign-in with a wallet's signature of an EIP-4361 or Sign-In-With-Solana message. */

export type * from "./ports/wallet-signatures.js";
export * from "./sign-in-web3.js";
export * from "./siwe-message.js";
