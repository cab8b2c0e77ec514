import type { FailureCatalogue } from "../kernel/index.js";

/** The guards slice's failures (composed with the others' in core/src/failures.ts). */
export const guardsFailures = {
  // Guards on requests
  captchaMissing: ["captcha_failed", "captcha protection: request disallowed (no captcha_token found)"],
  captchaRejected: [
    "captcha_failed",
    (errorCodes: readonly string[]) => `captcha protection: request disallowed (${errorCodes.join(", ")})`,
  ],
} as const satisfies FailureCatalogue;
