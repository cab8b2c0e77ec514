/**
 * Verification: one-time tokens by mail and SMS, `/verify` and `/resend`, and the token steps the
 * flows that prove an address share (sending a token, its frequency and undo, applying a confirmed
 * email or phone change).
 */
export * from "./email-change.js";
export * from "./phone-change.js";
export type * from "./ports/mailer.js";
export type * from "./ports/one-time-tokens.js";
export * from "./ports/send-quota.js";
export type * from "./ports/sms-sender.js";
export * from "./resend.js";
export * from "./steps/answer-alike.js";
export * from "./steps/confirmation.js";
export * from "./steps/frequency.js";
export * from "./steps/save-channel-change.js";
export * from "./steps/send-email-token.js";
export * from "./steps/send-sms-token.js";
export { undoCreationWith, undoMessage } from "./steps/undo-message.js";
export * from "./steps/unproven-email.js";
export { type VerifyInput, type VerifyOutcome, verifyOtp } from "./verify.js";
export type * from "./verify-type.js";
