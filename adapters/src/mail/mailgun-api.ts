import { field, formatAddress, joinUrl, type MailApiProvider } from "./mail-api.js";

export interface MailgunApiOptions {
  readonly apiKey: string;
  /** The sending domain, as Mailgun lists it. */
  readonly domain: string;
  /** Replaces `https://api.mailgun.net` (`https://api.eu.mailgun.net` for an EU domain; tests: a fake). */
  readonly baseUrl?: string | undefined;
}

/**
 * Mailgun's `POST /v3/<domain>/messages` (Basic `api:<key>`, a form). Errors are `{ message }`, or
 * plain text (`Forbidden` for a wrong key).
 */
export function mailgunApi(options: MailgunApiOptions): MailApiProvider {
  const url = joinUrl(
    options.baseUrl ?? "https://api.mailgun.net",
    `/v3/${encodeURIComponent(options.domain)}/messages`,
  );
  const authorization = `Basic ${Buffer.from(`api:${options.apiKey}`).toString("base64")}`;
  return {
    name: "mailgun",
    secrets: [options.apiKey, authorization],
    request: (message) => ({
      url,
      headers: { authorization, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        from: formatAddress(message.from),
        to: message.to,
        subject: message.subject,
        text: message.text,
        html: message.html,
      }).toString(),
    }),
    reason: ({ json, text }) =>
      field(json, "message") ??
      (json === undefined && text.length < 200 ? text.trim() || undefined : undefined),
  };
}
