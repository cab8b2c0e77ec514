import type { SmsSender } from "@authsvc/core/messaging";
import { firstOf, joinUrl, postToGateway, stringField } from "./gateway-request.js";
import { gatewayReason, SMS_TIMEOUT_MS, smsSendFailed } from "./sms-failure.js";

export interface MessagebirdSmsOptions {
  readonly accessKey: string;
  /** A phone number or an alphanumeric name of at most 11 characters. */
  readonly originator: string;
  /** Defaults to `https://rest.messagebird.com`; tests point it at a fake. */
  readonly baseUrl?: string | undefined;
  readonly timeoutMs?: number | undefined;
}

/** `recipients.totalSentCount` of a MessageBird message object, when present. */
function sentCount(json: unknown): number | undefined {
  if (json === null || typeof json !== "object") return undefined;
  const recipients = (json as { recipients?: unknown }).recipients;
  if (recipients === null || typeof recipients !== "object") return undefined;
  const count = (recipients as { totalSentCount?: unknown }).totalSentCount;
  return typeof count === "number" ? count : undefined;
}

/**
 * SMS through MessageBird's REST API: a JSON POST to `/messages` authenticated by
 * `Authorization: AccessKey <key>`. Success is a 2xx message object with an id and at least one
 * recipient sent; otherwise rejects with `sms_send_failed` carrying MessageBird's first error.
 */
export function messagebirdSms(options: MessagebirdSmsOptions): SmsSender {
  const url = joinUrl(options.baseUrl ?? "https://rest.messagebird.com", "/messages");
  const timeoutMs = options.timeoutMs ?? SMS_TIMEOUT_MS;
  const fail = (reason: string) => smsSendFailed("messagebird", reason, [options.accessKey]);
  return {
    async send(to, body) {
      const answer = await postToGateway({
        url,
        headers: {
          authorization: `AccessKey ${options.accessKey}`,
          "content-type": "application/json",
          accept: "application/json",
        },
        // `auto` lets MessageBird choose unicode when the text is not plain GSM.
        body: JSON.stringify({ recipients: [to], originator: options.originator, body, datacoding: "auto" }),
        timeoutMs,
      }).catch((error: Error) => {
        throw fail(error.message);
      });
      if (answer.status >= 200 && answer.status < 300) {
        const id = stringField(answer.json, "id");
        if (!id) throw fail("no message id in the answer");
        if (sentCount(answer.json) === 0) throw fail("no recipient was sent the message");
        return { messageId: id };
      }
      const error = firstOf(answer.json, "errors");
      throw fail(gatewayReason(stringField(error, "description"), stringField(error, "code"), answer.status));
    },
  };
}
