/**
 * Messaging: the mail, SMS, one-time-token and send-quota ports, and the steps that send a one-time
 * token by mail or SMS (its quota, its frequency, its undo when the change it announces rolls back).
 * The flows that send such tokens (signup, recovery, magic links, address changes, invites) and the
 * one that checks them (`/verify`) live in their own slices.
 */
export type * from "./ports/mailer.js";
export type * from "./ports/one-time-tokens.js";
export * from "./ports/send-quota.js";
export type { SmsChannel, SmsContext, SmsSender } from "./ports/sms-sender.js";
export type { MessagingSliceSettings } from "./settings.js";
export * from "./steps/frequency.js";
export {
  type AccountChange,
  NOTIFICATION_KINDS,
  type NotifyDeps,
  notifyAccountChange,
} from "./steps/notify-account-change.js";
export {
  type EmailVerifyType,
  sendEmailToken,
  type TokenMailKind,
  takeEmailQuota,
} from "./steps/send-email-token.js";
export { sendSmsToken } from "./steps/send-sms-token.js";
export { undoCreationWith, undoMessage } from "./steps/undo-message.js";
