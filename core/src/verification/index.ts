/**
 * Verification: `/verify` and `/resend`, and the steps the flows that prove an address share
 * (resending a confirmation, answering alike for unknown addresses, applying a confirmed email or
 * phone change). Sending the tokens is messaging's (messaging/).
 */
export {
  confirmEmailChange,
  EMAIL_CHANGE_TOKENS,
  emailApplied,
  mailEmailChange,
  resendEmailChange,
} from "./email-change.js";
export { applyPhoneChange, phoneApplied, resendPhoneChange, textPhoneChange } from "./phone-change.js";
export { resend } from "./resend.js";
export * from "./steps/answer-alike.js";
export * from "./steps/confirmation.js";
export * from "./steps/save-channel-change.js";
export * from "./steps/unproven-email.js";
export { verifyOtp } from "./verify.js";
export type * from "./verify-type.js";
