import { hcaptchaVerifier, turnstileVerifier } from "@authsvc/adapters";
import type { CaptchaVerifier } from "@authsvc/core/guards";
import type { Config } from "../../config/types.js";

/** The captcha provider's verifier when `SECURITY_CAPTCHA_ENABLED`, else none. */
export function captchaVerifierOf(config: Config): CaptchaVerifier | undefined {
  const captcha = config.security.captcha;
  if (!captcha.enabled) return undefined;
  const options = { secret: captcha.secret, timeoutMs: captcha.timeoutMs, url: captcha.url };
  return captcha.provider === "turnstile" ? turnstileVerifier(options) : hcaptchaVerifier(options);
}
