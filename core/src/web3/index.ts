/** Web3: sign-in with a wallet's signature of an EIP-4361 or Sign-In-With-Solana message. */
export * from "./sign-in-web3.js";
