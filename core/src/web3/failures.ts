import type { FailureCatalogue } from "../kernel/index.js";

/** The web3 slice's failures (composed with the others' in core/src/failures.ts). */
export const web3Failures = {
  web3Disabled: ["web3_provider_disabled", "Web3 provider is disabled"],
  web3UnsupportedChain: ["web3_unsupported_chain", "Unsupported chain"],
  web3SolanaDisabled: ["web3_provider_disabled", "Solana Web3 provider is disabled"],
  web3MessageTooShort: ["validation_failed", "message is too short"],
  web3MessageTooLong: ["validation_failed", "message must not exceed 20KB"],
  web3MessageInvalid: ["validation_failed", (reason: string) => reason],
  // Refusals of a well-formed message: the reference answers them as OAuth `invalid_grant` (400).
  web3SignatureMismatch: ["validation_failed", "Signature does not match address in message"],
  web3UriInsecure: ["validation_failed", "Signed Ethereum message must use https URI"],
  web3UriNotAllowed: [
    "validation_failed",
    "Signed Ethereum message is using a URI not allowed on this server",
  ],
  web3DomainMismatch: [
    "validation_failed",
    "Signed Ethereum message is using a domain that does not match the URI or is not allowed on this server",
  ],
  web3MessageTimeRefused: ["validation_failed", (reason: string) => `Signed Ethereum ${reason}`],
  web3MessageReplayed: ["validation_failed", "Signed Ethereum message was already used to sign in"],
} as const satisfies FailureCatalogue;

/** The failures `POST /token?grant_type=web3` answers as OAuth `invalid_grant`, as the reference. */
export const WEB3_INVALID_GRANT: ReadonlySet<string> = new Set([
  "web3SignatureMismatch",
  "web3UriInsecure",
  "web3UriNotAllowed",
  "web3DomainMismatch",
  "web3MessageTimeRefused",
  "web3MessageReplayed",
]);
