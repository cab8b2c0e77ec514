import type { SmsSender } from "@authsvc/core/messaging";
import { firstOf, joinUrl, postToGateway, stringField } from "./gateway-request.js";
import { gatewayReason, SMS_TIMEOUT_MS, smsSendFailed } from "./sms-failure.js";

export interface TextlocalSmsOptions {
  readonly apiKey: string;
  /** 3–11 alphanumeric characters or up to 13 digits. */
  readonly sender: string;
  /** Defaults to `https://api.txtlocal.com`; tests point it at a fake. */
  readonly baseUrl?: string | undefined;
  readonly timeoutMs?: number | undefined;
}

/**
 * SMS through Textlocal's `send` command: a form POST to `/send/`. Textlocal answers 200 either way,
 * so success is `status: "success"` with a message id; `status: "failure"` rejects with
 * `sms_send_failed` carrying the first of Textlocal's `errors`.
 */
export function textlocalSms(options: TextlocalSmsOptions): SmsSender {
  const url = joinUrl(options.baseUrl ?? "https://api.txtlocal.com", "/send/");
  const timeoutMs = options.timeoutMs ?? SMS_TIMEOUT_MS;
  const fail = (reason: string) => smsSendFailed("textlocal", reason, [options.apiKey]);
  return {
    async send(to, body) {
      const form = new URLSearchParams({
        apikey: options.apiKey,
        numbers: to,
        sender: options.sender,
        message: body,
      });
      const answer = await postToGateway({
        url,
        headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
        body: form.toString(),
        timeoutMs,
      }).catch((error: Error) => {
        throw fail(error.message);
      });
      const ok = answer.status >= 200 && answer.status < 300;
      if (ok && stringField(answer.json, "status") === "success") {
        const id = stringField(firstOf(answer.json, "messages"), "id");
        if (id) return { messageId: id };
        throw fail("no message id in the answer");
      }
      const error = firstOf(answer.json, "errors");
      throw fail(gatewayReason(stringField(error, "message"), stringField(error, "code"), answer.status));
    },
  };
}
