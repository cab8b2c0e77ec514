import { failures } from "../failures.js";
import type { AuthError, Result } from "../kernel/index.js";
import type { WalletSignatures } from "./ports/wallet-signatures.js";
import type { Web3ChainSettings, Web3Settings } from "./settings.js";
import type { SignInMessage } from "./sign-in-message.js";
import { parseSiweMessage } from "./siwe-message.js";
import { parseSiwsMessage } from "./siws-message.js";

/** What differs between the chains a wallet may sign in with; the checks after the signature are shared. */
export interface Web3Chain {
  /** As the request's `chain` and the identity (`web3:<name>:<address>`) write it. */
  readonly name: "ethereum" | "solana";
  /** As the reference's sentences write it. */
  readonly label: "Ethereum" | "Solana";
  settings(web3: Web3Settings["web3"]): Web3ChainSettings;
  /** Why the signature cannot be one of this chain's, before the message is read; null when it may be. */
  signatureProblem(signature: string): AuthError | null;
  parse(raw: string): Result<SignInMessage, string>;
  verify(wallets: WalletSignatures, message: SignInMessage, signature: string): Promise<boolean>;
  /** The address the identity is keyed by: one wallet, one identity. */
  identityAddress(address: string): string;
  /** The statement recorded when the message has none (the reference's, per chain). */
  readonly noStatement: string | null;
}

const ETHEREUM_SIGNATURE = /^(0x)?[\s\S]{130}$/;
const SOLANA_SIGNATURE = /^[A-Za-z0-9+/_-]{86}(==)?$/;

const ethereum: Web3Chain = {
  name: "ethereum",
  label: "Ethereum",
  settings: (web3) => web3.ethereum,
  signatureProblem: (signature) =>
    ETHEREUM_SIGNATURE.test(signature) ? null : failures.web3EthereumSignatureMalformed(),
  parse: parseSiweMessage,
  verify: (wallets, message, signature) => wallets.ethereum(message.raw, signature, message.address),
  // auth-js writes the address in lower case, other clients in EIP-55 mixed case (the reference keeps
  // it as written, so the same wallet could open two accounts).
  identityAddress: (address) => address.toLowerCase(),
  noStatement: null,
};

const solana: Web3Chain = {
  name: "solana",
  label: "Solana",
  settings: (web3) => web3.solana,
  signatureProblem: (signature) => {
    if (signature.length !== 86 && signature.length !== 88) return failures.web3SolanaSignatureLength();
    return SOLANA_SIGNATURE.test(signature) ? null : failures.web3SolanaSignatureNotBase64();
  },
  parse: parseSiwsMessage,
  verify: (wallets, message, signature) =>
    wallets.solana(message.raw, signature, message.address, message.domain),
  // base58 is case-sensitive: the address is the key.
  identityAddress: (address) => address,
  noStatement: "",
};

/** The chains by the request's `chain` (a map: a `chain` of `constructor` must find nothing). */
export const WEB3_CHAINS: ReadonlyMap<string, Web3Chain> = new Map([
  [ethereum.name, ethereum],
  [solana.name, solana],
]);
