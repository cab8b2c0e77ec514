import { field, formatAddress, joinUrl, type MailApiProvider } from "./mail-api.js";

export interface PostmarkApiOptions {
  readonly serverToken: string;
  /** The message stream (`outbound` unless the server has another transactional stream). */
  readonly messageStream?: string | undefined;
  /** Replaces `https://api.postmarkapp.com`; tests point it at a fake. */
  readonly baseUrl?: string | undefined;
}

/** Postmark's `POST /email` (`X-Postmark-Server-Token`, JSON). Errors are `{ ErrorCode, Message }`. */
export function postmarkApi(options: PostmarkApiOptions): MailApiProvider {
  const url = joinUrl(options.baseUrl ?? "https://api.postmarkapp.com", "/email");
  return {
    name: "postmark",
    secrets: [options.serverToken],
    request: (message) => ({
      url,
      headers: {
        accept: "application/json",
        "content-type": "application/json",
        "x-postmark-server-token": options.serverToken,
      },
      body: JSON.stringify({
        From: formatAddress(message.from),
        To: message.to,
        Subject: message.subject,
        HtmlBody: message.html,
        TextBody: message.text,
        MessageStream: options.messageStream ?? "outbound",
      }),
    }),
    reason: ({ json }) => {
      const text = field(json, "Message");
      const code = field(json, "ErrorCode");
      return text ? (code ? `${text} (code ${code})` : text) : undefined;
    },
  };
}
