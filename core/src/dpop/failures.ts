import type { FailureCatalogue } from "../kernel/index.js";

/** DPoP's failures (RFC 9449 §5, §7.1, §8): OAuth error words, answered as OAuth errors. */
export const dpopFailures = {
  dpopProofMissing: ["invalid_dpop_proof", (why: string) => `DPoP proof is required: ${why}`],
  dpopProofInvalid: ["invalid_dpop_proof", (problem: string) => `Invalid DPoP proof: ${problem}`],
  dpopProofReplayed: ["invalid_dpop_proof", "Invalid DPoP proof: it was already used"],
  dpopNonceMissing: ["use_dpop_nonce", "Authorization server requires nonce in DPoP proof"],
  dpopNonceStale: ["use_dpop_nonce", "DPoP nonce is invalid or expired"],
  dpopKeyMismatch: ["invalid_dpop_proof", "Invalid DPoP proof: its key is not the one the token is bound to"],
  refreshDpopKeyMismatch: ["invalid_grant", "Refresh token is bound to another DPoP key"],
  dpopBoundTokenAsBearer: ["invalid_token", "DPoP-bound access token presented as a bearer token"],
  dpopSchemeWithoutBinding: ["invalid_token", "Access token is not DPoP-bound: present it as a bearer token"],
} as const satisfies FailureCatalogue;
