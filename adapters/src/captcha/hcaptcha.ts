import type { CaptchaVerifier } from "@authsvc/core/guards";
import { type SiteverifyOptions, siteverify } from "./siteverify.js";

/** hCaptcha's verification endpoint (https://docs.hcaptcha.com/#verify-the-user-response-server-side). */
export const HCAPTCHA_SITEVERIFY_URL = "https://api.hcaptcha.com/siteverify";

/** A `CaptchaVerifier` over hCaptcha's `siteverify` API. */
export const hcaptchaVerifier = (options: SiteverifyOptions): CaptchaVerifier =>
  siteverify("hCaptcha", HCAPTCHA_SITEVERIFY_URL, options);
