import type { User } from "../../accounts/index.js";

/** How a code reaches the phone: a text message, or a WhatsApp message (Twilio only, as in the reference). */
export type SmsChannel = "sms" | "whatsapp";

/** What a text carries besides its body: for a send-SMS hook, which receives the code, not the text. */
export interface SmsContext {
  /** `whatsapp` for a WhatsApp message; a text message when absent. */
  readonly channel?: SmsChannel;
  readonly otp: string;
  readonly user: User;
  /** `mfa` for an MFA challenge; absent otherwise (reference `sms_type`). */
  readonly smsType?: string;
}

/**
 * Sends text messages through the configured gateway (`SMS_PROVIDER`).
 *
 * `send` resolves with the gateway's message id once the gateway accepted the message, and rejects
 * with an `AuthError` (`sms_send_failed`) when it refused it or could not be reached.
 */
export interface SmsSender {
  /** `to` is E.164 digits without the `+`; `context` is what the text is made of (its code, its user). */
  send(to: string, body: string, context?: SmsContext): Promise<{ messageId: string }>;
}
