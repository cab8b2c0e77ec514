import type { FailureCatalogue } from "../kernel/index.js";

/** The hooks slice's failures (composed with the others' in core/src/failures.ts). */
export const hooksFailures = {
  // Auth hooks (reference internal/hooks): how a hook failed, or what it decided
  hookTimeout: [
    "hook_timeout",
    (seconds: number) => `Failed to reach hook within maximum time of ${Number(seconds).toFixed(6)} seconds`,
  ],
  hookTimeoutAfterRetry: ["hook_timeout_after_retry", "Failed to reach hook after maximum retries"],
  hookPayloadInvalidContentType: ["hook_payload_invalid_content_type", (detail: string) => detail],
  hookPayloadOverSizeLimit: [
    "hook_payload_over_size_limit",
    (bytes: number) => `Payload size exceeded size limit of ${bytes} bytes`,
  ],
  /** A hook that could not be run or answered something unusable; the message says which. */
  hookFailed: ["unexpected_failure", (message: string) => message],
  /** A hook's own error object (`{"error": {"http_code", "message"}}`); see `HookRejection`. */
  hookError: ["unexpected_failure", (message: string) => message],
  accessTokenClaimsInvalid: [
    "unexpected_failure",
    (problems: readonly string[]) =>
      `output claims do not conform to the expected schema: \n${problems.map((p) => `- ${p}\n`).join("")}`,
  ],
  passwordVerificationRejected: [
    "invalid_credentials",
    (message?: string) => message || "Further password verification attempts will be rejected.",
  ],
  mfaVerificationRejected: [
    "mfa_verification_rejected",
    (message?: string) => message || "Further MFA verification attempts will be rejected.",
  ],
  noFlowStateForUser: [
    "flow_state_not_found",
    "No associated flow state found. No valid flow state found for user.",
  ],
} as const satisfies FailureCatalogue;
