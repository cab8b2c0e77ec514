/** Passwordless sign-in: a magic link or a one-time code by mail, a one-time code by SMS. */
export * from "./send-magic-link.js";
export * from "./send-otp-sms.js";
