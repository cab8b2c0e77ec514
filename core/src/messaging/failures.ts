import type { FailureCatalogue } from "../kernel/index.js";

/** The messaging slice's failures (composed with the others' in core/src/failures.ts). */
export const messagingFailures = {
  emailRateLimit: ["over_email_send_rate_limit", "email rate limit exceeded"],
  smsRateLimit: ["over_sms_send_rate_limit", "SMS rate limit exceeded"],
  emailTooSoon: ["over_email_send_rate_limit", (seconds: number) => tooSoonMessage(seconds)],
  smsTooSoon: ["over_sms_send_rate_limit", (seconds: number) => tooSoonMessage(seconds)],
  emailSendFailed: ["email_send_failed", (kind?: string) => `Error sending ${kind ? `${kind} ` : ""}email`],
  smsSendFailed: ["sms_send_failed", (reason?: string) => `Error sending SMS${reason ? `: ${reason}` : ""}`],
  emailNotConfigured: ["email_send_failed", "Error sending email: no SMTP_HOST is configured"],
} as const satisfies FailureCatalogue;

function tooSoonMessage(seconds: number): string {
  return `For security purposes, you can only request this after ${seconds} seconds.`;
}
