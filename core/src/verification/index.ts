/**
 * Verification: one-time tokens by mail and SMS, and every flow that proves an address — sign-up,
 * verify, magic link, OTP, recovery, resend, email and phone change, reauthentication, update-user.
 */
export type * from "./deps.js";
export * from "./email-change.js";
export * from "./phone-change.js";
export type * from "./ports/mailer.js";
export type * from "./ports/one-time-tokens.js";
export * from "./ports/send-quota.js";
export type * from "./ports/sms-sender.js";
export * from "./reauthenticate.js";
export * from "./recover.js";
export * from "./resend.js";
export * from "./send-magic-link.js";
export * from "./send-otp-sms.js";
export * from "./sign-up.js";
export * from "./steps/frequency.js";
export * from "./steps/send-email-token.js";
export * from "./steps/send-sms-token.js";
export { undoCreationWith } from "./steps/undo-message.js";
export * from "./update-user.js";
export { type VerifyInput, type VerifyOutcome, verifyOtp } from "./verify.js";
export type * from "./verify-type.js";
