export type { AdminUserBody } from "./domain/admin-user-fields.js";
export * from "./domain/audit-actor.js";
export * from "./domain/ban-duration.js";
export * from "./domain/claims.js";
export * from "./domain/constant-time.js";
export * from "./domain/email.js";
export * from "./domain/metadata.js";
export * from "./domain/password-policy.js";
export * from "./domain/phone.js";
export * from "./domain/redirect.js";
export type * from "./domain/session.js";
export type * from "./domain/settings.js";
export * from "./domain/user.js";
export * from "./domain/uuid.js";
export * from "./errors.js";
export type * from "./ports/index.js";
export * from "./result.js";
export { adminCreateUser } from "./use-cases/admin-create-user.js";
export { adminDeleteUser } from "./use-cases/admin-delete-user.js";
export { adminGetUser } from "./use-cases/admin-get-user.js";
export { adminListUsers, type UserPage } from "./use-cases/admin-list-users.js";
export { adminUpdateUser } from "./use-cases/admin-update-user.js";
export * from "./use-cases/authenticate.js";
export type { AuthDeps } from "./use-cases/deps.js";
export {
  confirmEmailChange,
  EMAIL_CHANGE_PENDING_MESSAGE,
  type EmailChangeOutcome,
  type RequestEmailChangeInput,
  requestEmailChange,
  resendEmailChange,
} from "./use-cases/email-change.js";
export {
  type ActionLink,
  type GenerateLinkInput,
  type GenerateLinkType,
  generateLink,
} from "./use-cases/generate-link.js";
export { inviteUser } from "./use-cases/invite-user.js";
export type { SessionTokens } from "./use-cases/issue-session.js";
export * from "./use-cases/logout.js";
export { tooSoon } from "./use-cases/messages/frequency.js";
export {
  type EmailToken,
  type EmailVerifyType,
  type SendEmailTokenInput,
  sendEmailToken,
} from "./use-cases/messages/send-email-token.js";
export { type SendSmsTokenInput, sendSmsToken } from "./use-cases/messages/send-sms-token.js";
export { orRollback, transactionRollingBackOn } from "./use-cases/messages/transaction.js";
export { applyPhoneChange, requestPhoneChange, resendPhoneChange } from "./use-cases/phone-change.js";
export { reauthenticate } from "./use-cases/reauthenticate.js";
export { recoverPassword } from "./use-cases/recover.js";
export * from "./use-cases/refresh-session.js";
export { type ResendInput, resend } from "./use-cases/resend.js";
export {
  MAGIC_LINK_GAP_SECONDS,
  type SendMagicLinkInput,
  sendMagicLink,
} from "./use-cases/send-magic-link.js";
export { type SendSmsOtpInput, sendSmsOtp } from "./use-cases/send-otp-sms.js";
export * from "./use-cases/sign-in-password.js";
export * from "./use-cases/sign-up.js";
export { type UpdateUserInput, updateUser } from "./use-cases/update-user.js";
export { type VerifyInput, type VerifyOutcome, type VerifyType, verifyOtp } from "./use-cases/verify.js";
