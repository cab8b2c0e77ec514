/** Web3: sign-in with a wallet's signature of an EIP-4361 message. */
export * from "./failures.js";
export type * from "./ports/wallet-signatures.js";
export type * from "./settings.js";
export * from "./sign-in-web3.js";
export * from "./siwe-message.js";
