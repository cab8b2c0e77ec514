import { failures } from "../failures.js";
import { err, ok, type Result } from "../kernel/index.js";
import type { CaptchaVerifier } from "./ports/captcha-verifier.js";

/** The ports `checkCaptcha` needs. */
export interface CaptchaDeps {
  readonly captcha: CaptchaVerifier;
}

export interface CaptchaInput {
  /** `gotrue_meta_security.captcha_token` of the request body, as sent (any type). */
  readonly token: unknown;
  readonly remoteIp?: string | undefined;
}

/**
 * The captcha guard of sign-up, password sign-in and the OTP-sending requests: a request without a
 * token, or with one the provider refuses, is `captcha_failed`. A provider that cannot be reached
 * is a fault and throws (the reference answers 500), so that an outage never lets requests through.
 */
export async function checkCaptcha(deps: CaptchaDeps, input: CaptchaInput): Promise<Result<void>> {
  const token = typeof input.token === "string" ? input.token.trim() : "";
  if (token === "") return err(failures.captchaMissing());
  const verdict = await deps.captcha.verify({ token, remoteIp: input.remoteIp });
  if (!verdict.success) return err(failures.captchaRejected(verdict.errorCodes));
  return ok(undefined);
}
