/** Guards on requests: captcha verification and request limits shared by all instances. */
export { checkCaptcha } from "./check-captcha.js";
export type * from "./ports/captcha-verifier.js";
export type * from "./ports/request-limiter.js";
