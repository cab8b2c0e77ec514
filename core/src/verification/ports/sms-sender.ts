/**
 * Sends text messages through the configured gateway (`SMS_PROVIDER`).
 *
 * `send` resolves with the gateway's message id once the gateway accepted the message, and rejects
 * with an `AuthError` (`sms_send_failed`) when it refused it or could not be reached.
 */
export interface SmsSender {
  /** `to` is E.164 digits without the `+`. */
  send(to: string, body: string): Promise<{ messageId: string }>;
}
