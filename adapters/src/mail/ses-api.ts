import { type AwsCredentials, signV4 } from "./aws-sigv4.js";
import { field, formatAddress, joinUrl, type MailApiProvider } from "./mail-api.js";

export interface SesApiOptions extends AwsCredentials {
  /** The AWS region of the SES identity (`eu-west-1`). */
  readonly region: string;
  /** A configuration set (event publishing, dedicated IPs), if any. */
  readonly configurationSet?: string | undefined;
  /** Replaces `https://email.<region>.amazonaws.com`; tests point it at a fake. */
  readonly baseUrl?: string | undefined;
}

const utf8 = (data: string) => ({ Data: data, Charset: "UTF-8" });

/**
 * Amazon SES v2 `SendEmail` (`POST /v2/email/outbound-emails`, JSON), signed with Signature Version 4
 * (service `ses`) at each attempt. Errors are `{ message }` with their type in `x-amzn-ErrorType`.
 */
export function sesApi(options: SesApiOptions): MailApiProvider {
  const url = joinUrl(
    options.baseUrl ?? `https://email.${options.region}.amazonaws.com`,
    "/v2/email/outbound-emails",
  );
  return {
    name: "ses",
    secrets: [options.secretAccessKey, ...(options.sessionToken ? [options.sessionToken] : [])],
    request: (message, now) => {
      const body = JSON.stringify({
        FromEmailAddress: formatAddress(message.from),
        Destination: { ToAddresses: [message.to] },
        Content: {
          Simple: {
            Subject: utf8(message.subject),
            Body: { Text: utf8(message.text), Html: utf8(message.html) },
          },
        },
        ...(options.configurationSet ? { ConfigurationSetName: options.configurationSet } : {}),
      });
      const headers = signV4({
        method: "POST",
        url,
        headers: { "content-type": "application/json" },
        body,
        service: "ses",
        region: options.region,
        credentials: options,
        now,
      });
      return { url, headers, body };
    },
    reason: ({ json, headers }) => {
      const text = field(json, "message") ?? field(json, "Message");
      const rawType = headers["x-amzn-errortype"];
      // `MessageRejected:http://internal.amazon.com/coral/...`: the name is before the colon.
      const type = (Array.isArray(rawType) ? rawType[0] : rawType)?.split(":")[0] ?? field(json, "__type");
      return text ? (type ? `${text} (${type})` : text) : type;
    },
  };
}
