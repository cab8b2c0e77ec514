import { createRequire } from "node:module";
import type { SmsSender } from "@authsvc/core/messaging";
import type TwilioSdk from "twilio";
import { SMS_TIMEOUT_MS, smsSendFailed } from "./sms-failure.js";

export interface TwilioSmsOptions {
  readonly accountSid: string;
  readonly authToken: string;
  /** A messaging-service SID (`MG…`), or a sender phone number when it starts with `+`. */
  readonly messageServiceSid: string;
  /**
   * A Content API template (`HX…`) for WhatsApp messages, whose variable `1` is the code: WhatsApp
   * delivers business-initiated messages only from an approved template. Without it, WhatsApp gets
   * the text's body as a free-form message.
   */
  readonly contentSid?: string | undefined;
  /** Replaces `https://api.twilio.com`; tests point it at a fake. */
  readonly baseUrl?: string | undefined;
  readonly timeoutMs?: number | undefined;
}

/** Twilio's words for a failure: a RestException's message and numeric code, or the wire error. */
function twilioReason(error: unknown): string {
  if (!(error instanceof Error)) return "request failed";
  const code = (error as { code?: unknown }).code;
  // Network errors (axios) carry string codes already spelled out in their message.
  return typeof code === "number" ? `${error.message} (code ${code})` : error.message;
}

/**
 * SMS through Twilio's Messages API with the official SDK, and WhatsApp messages (`channel:
 * "whatsapp"`) through the same API as the reference sends them: recipient and sender phone number
 * prefixed `whatsapp:`, and with a content template its SID and the code as variable `1` instead of
 * a body. The SDK's errors are reduced to their message and code: they (and the axios errors beneath
 * them) hold the request with its Basic credentials, so they never leave this function.
 */
export function twilioSms(options: TwilioSmsOptions): SmsSender {
  // The SDK (with axios beneath it) is required here, not imported at the top: loading it costs a good
  // part of a second at start, and only servers configured for Twilio need it.
  const twilio = createRequire(import.meta.url)("twilio") as typeof TwilioSdk;
  const client = twilio(options.accountSid, options.authToken, {
    timeout: options.timeoutMs ?? SMS_TIMEOUT_MS,
    autoRetry: false,
    // The SDK rewrites every host with TWILIO_EDGE / TWILIO_REGION from the environment; blank
    // values keep an overridden base URL exactly as given.
    ...(options.baseUrl ? { edge: "", region: "" } : {}),
  });
  // Every Messages call is built from the `api` domain's base URL (`https://api.twilio.com`).
  if (options.baseUrl) client.api.baseUrl = options.baseUrl;
  const sender = options.messageServiceSid.startsWith("+")
    ? { from: options.messageServiceSid }
    : { messagingServiceSid: options.messageServiceSid };
  const fail = (reason: string) => smsSendFailed("twilio", reason, [options.authToken]);
  return {
    async send(to, body, context) {
      const whatsapp = context?.channel === "whatsapp";
      const message = whatsapp
        ? {
            to: `whatsapp:+${to}`,
            ...("from" in sender ? { from: `whatsapp:${sender.from}` } : sender),
            ...(options.contentSid
              ? { contentSid: options.contentSid, contentVariables: JSON.stringify({ 1: context.otp }) }
              : { body }),
          }
        : { to: `+${to}`, body, ...sender };
      let sid: string | undefined;
      try {
        ({ sid } = await client.messages.create(message));
      } catch (error) {
        throw fail(twilioReason(error));
      }
      if (!sid) throw fail("no message sid in the answer");
      return { messageId: sid };
    },
  };
}
