/** Passwordless sign-in: a magic link or a one-time code by mail, a one-time code by SMS. */
export { sendMagicLink } from "./send-magic-link.js";
export { sendSmsOtp } from "./send-otp-sms.js";
