/** Web3: sign-in with a wallet's signature of a sign-in message (Ethereum EIP-4361, Solana SIWS). */
export * from "./chains.js";
export * from "./failures.js";
export type * from "./ports/wallet-signatures.js";
export type * from "./settings.js";
export * from "./sign-in-message.js";
export * from "./sign-in-web3.js";
export * from "./siwe-message.js";
export * from "./siws-message.js";
