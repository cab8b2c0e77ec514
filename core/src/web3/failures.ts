import type { FailureCatalogue } from "../kernel/index.js";

/** The name of a chain as the reference's sentences write it. */
type ChainLabel = "Ethereum" | "Solana";

/** The web3 slice's failures (composed with the others' in core/src/failures.ts); sentences are the reference's. */
export const web3Failures = {
  web3Disabled: ["web3_provider_disabled", "Web3 provider is disabled"],
  web3UnsupportedChain: ["web3_unsupported_chain", "Unsupported chain"],
  web3ChainDisabled: ["web3_provider_disabled", (chain: ChainLabel) => `${chain} Web3 provider is disabled`],
  web3MessageTooShort: ["validation_failed", "message is too short"],
  web3MessageTooLong: ["validation_failed", "message must not exceed 20KB"],
  web3MessageInvalid: ["validation_failed", (reason: string) => reason],
  web3EthereumSignatureMalformed: [
    "validation_failed",
    "signature must be 65 bytes long, encoded as a 130 character-long hexadecimal string",
  ],
  web3SolanaSignatureLength: [
    "validation_failed",
    "signature must be 64 bytes encoded as base64 with or without padding",
  ],
  web3SolanaSignatureNotBase64: ["validation_failed", "signature does not contain valid base64 characters"],
  // Refusals of a well-formed message: the reference answers them as OAuth `invalid_grant` (400).
  web3SignatureMismatch: ["validation_failed", "Signature does not match address in message"],
  web3UriInsecure: [
    "validation_failed",
    (chain: ChainLabel) => `Signed ${chain} message is using URI which does not use HTTPS`,
  ],
  web3UriNotAllowed: [
    "validation_failed",
    (chain: ChainLabel) =>
      `Signed ${chain} message is using URI which is not allowed on this server, message was signed for another app`,
  ],
  web3DomainMismatch: [
    "validation_failed",
    (chain: ChainLabel) =>
      `Signed ${chain} message is using a Domain that does not match the one in URI which is not allowed on this server`,
  ],
  web3MessageNotYetValid: [
    "validation_failed",
    (chain: ChainLabel) => `Signed ${chain} message becomes valid in the future`,
  ],
  web3MessageExpired: ["validation_failed", (chain: ChainLabel) => `Signed ${chain} message is expired`],
  web3MessageTooOld: ["validation_failed", (chain: ChainLabel) => `${chain} message was issued too long ago`],
  web3MessageFromTheFuture: [
    "validation_failed",
    (chain: ChainLabel) => `${chain} message was issued too far in the future`,
  ],
  web3MessageReplayed: [
    "validation_failed",
    (chain: ChainLabel) => `Signed ${chain} message was already used to sign in`,
  ],
} as const satisfies FailureCatalogue;

/** The failures `POST /token?grant_type=web3` answers as OAuth `invalid_grant`, as the reference. */
export const WEB3_INVALID_GRANT: ReadonlySet<string> = new Set([
  "web3SignatureMismatch",
  "web3UriInsecure",
  "web3UriNotAllowed",
  "web3DomainMismatch",
  "web3MessageNotYetValid",
  "web3MessageExpired",
  "web3MessageTooOld",
  "web3MessageFromTheFuture",
  "web3MessageReplayed",
]);
