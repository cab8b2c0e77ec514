import type { CaptchaVerifier } from "@authsvc/core/guards";
import { type SiteverifyOptions, siteverify } from "./siteverify.js";

/** Cloudflare Turnstile's verification endpoint (https://developers.cloudflare.com/turnstile/get-started/server-side-validation/). */
export const TURNSTILE_SITEVERIFY_URL = "https://challenges.cloudflare.com/turnstile/v0/siteverify";

/** A `CaptchaVerifier` over Cloudflare Turnstile's `siteverify` API. */
export const turnstileVerifier = (options: SiteverifyOptions): CaptchaVerifier =>
  siteverify("Turnstile", TURNSTILE_SITEVERIFY_URL, options);
