import type { SmsSender } from "@authsvc/core/messaging";
import { firstOf, joinUrl, postToGateway, stringField } from "./gateway-request.js";
import { gatewayReason, SMS_TIMEOUT_MS, smsSendFailed } from "./sms-failure.js";

export interface VonageSmsOptions {
  readonly apiKey: string;
  readonly apiSecret: string;
  /** A phone number (digits) or an alphanumeric sender name. */
  readonly from: string;
  /** Defaults to `https://rest.nexmo.com`; tests point it at a fake. */
  readonly baseUrl?: string | undefined;
  readonly timeoutMs?: number | undefined;
}

/**
 * Text outside GSM 03.38 needs the unicode message type, or Vonage replaces it. Printable ASCII but
 * the backtick is GSM; beyond ASCII, unicode is the safe choice (it only costs shorter segments).
 */
const needsUnicode = (text: string) => /[^\n\r\x20-\x5f\x61-\x7e]/.test(text);

/**
 * SMS through Vonage's (Nexmo's) SMS API: a form POST to `/sms/json`. The API answers 200 even when
 * it refuses the message, so success is a first message with status "0"; anything else rejects
 * with `sms_send_failed` carrying Vonage's `error-text`.
 */
export function vonageSms(options: VonageSmsOptions): SmsSender {
  const url = joinUrl(options.baseUrl ?? "https://rest.nexmo.com", "/sms/json");
  const timeoutMs = options.timeoutMs ?? SMS_TIMEOUT_MS;
  const fail = (reason: string) => smsSendFailed("vonage", reason, [options.apiSecret, options.apiKey]);
  return {
    async send(to, body) {
      const form = new URLSearchParams({
        api_key: options.apiKey,
        api_secret: options.apiSecret,
        from: options.from,
        to,
        text: body,
      });
      if (needsUnicode(body)) form.set("type", "unicode");
      const answer = await postToGateway({
        url,
        headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
        body: form.toString(),
        timeoutMs,
      }).catch((error: Error) => {
        throw fail(error.message);
      });
      const message = firstOf(answer.json, "messages");
      const status = stringField(message, "status");
      const id = stringField(message, "message-id");
      if (answer.status >= 200 && answer.status < 300 && status === "0") {
        if (id) return { messageId: id };
        throw fail("no message-id in the answer");
      }
      const reason = stringField(message, "error-text");
      throw fail(gatewayReason(reason, status === "0" ? undefined : status, answer.status));
    },
  };
}
