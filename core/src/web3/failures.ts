import type { FailureCatalogue } from "../kernel/index.js";

/** The web3 slice's failures (composed with the others' in core/src/failures.ts). */
export const web3Failures = {
  web3Disabled: ["web3_provider_disabled", "Web3 provider is disabled"],
  web3UnsupportedChain: ["web3_unsupported_chain", "Unsupported chain"],
} as const satisfies FailureCatalogue;
