import type { FailureCatalogue } from "../kernel/index.js";

/** The pkce slice's failures (composed with the others' in core/src/failures.ts). */
export const pkceFailures = {
  // PKCE and flow states
  pkceParamsIncomplete: ["validation_failed", "PKCE flow requires code_challenge_method and code_challenge"],
  codeChallengeLength: ["validation_failed", "code challenge has to be between 43 and 128 characters"],
  codeChallengeCharacters: [
    "validation_failed",
    "code challenge can only contain alphanumeric characters, hyphens, periods, underscores and tildes",
  ],
  codeChallengeMethodUnsupported: ["validation_failed", "code challenge method not supported"],
  pkceGrantIncomplete: [
    "validation_failed",
    "invalid request: both auth code and code verifier should be non-empty",
  ],
  flowStateNotFound: ["flow_state_not_found", "invalid flow state, no valid flow state found"],
  flowStateExpired: ["flow_state_expired", "invalid flow state, flow state has expired"],
  badCodeVerifier: ["bad_code_verifier", "code challenge does not match previously saved code verifier"],
} as const satisfies FailureCatalogue;
