import { randomUUID } from "node:crypto";
import type { SmsSender } from "@authsvc/core/messaging";

/**
 * The development SMS sink (`SMS_PROVIDER=log`, embedded mode's default): each text becomes one log
 * line with its number, body and code instead of going to a gateway, so the phone flows can be
 * followed without one. `write` must bypass log redaction (the code is the point here); anyone who
 * reads these lines can sign in as the numbers' owners, which is why a server on a real database
 * uses it only when configured so.
 */
export function logSms(write: (fields: Record<string, unknown>, msg: string) => void): SmsSender {
  return {
    async send(to, body, context) {
      const messageId = `log-${randomUUID()}`;
      write(
        {
          sms_to: `+${to}`,
          sms_body: body,
          ...(context?.otp === undefined ? {} : { sms_code: context.otp }),
          ...(context?.channel === "whatsapp" ? { sms_channel: "whatsapp" } : {}),
          sms_message_id: messageId,
        },
        `development SMS to +${to}: not sent, written to the log (SMS_PROVIDER=log)`,
      );
      return { messageId };
    },
  };
}
