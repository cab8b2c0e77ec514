import { field, formatAddress, joinUrl, type MailApiProvider } from "./mail-api.js";

export interface ResendApiOptions {
  readonly apiKey: string;
  /** Replaces `https://api.resend.com`; tests point it at a fake. */
  readonly baseUrl?: string | undefined;
}

/**
 * Resend's `POST /emails` (Bearer API key, JSON). Every attempt at one mail carries the same
 * `Idempotency-Key`, so a retry after a lost answer is not sent twice. Errors are `{ name, message }`.
 */
export function resendApi(options: ResendApiOptions): MailApiProvider {
  const url = joinUrl(options.baseUrl ?? "https://api.resend.com", "/emails");
  return {
    name: "resend",
    secrets: [options.apiKey],
    request: (message) => ({
      url,
      headers: {
        authorization: `Bearer ${options.apiKey}`,
        "content-type": "application/json",
        "idempotency-key": message.id,
      },
      body: JSON.stringify({
        from: formatAddress(message.from),
        to: [message.to],
        subject: message.subject,
        html: message.html,
        text: message.text,
      }),
    }),
    reason: ({ json }) => {
      const text = field(json, "message");
      const name = field(json, "name");
      return text ? (name ? `${text} (${name})` : text) : undefined;
    },
  };
}
