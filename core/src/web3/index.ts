/** Web3: sign-in with a wallet's signature of a sign-in message (Ethereum EIP-4361, Solana SIWS). */
export * from "./failures.js";
export type { WalletSignatures } from "./ports/wallet-signatures.js";
export type { Web3Settings } from "./settings.js";
export { signInWithWeb3, web3Grant } from "./sign-in-web3.js";
export { parseSiweMessage } from "./siwe-message.js";
export { parseSiwsMessage, SIWS } from "./siws-message.js";
