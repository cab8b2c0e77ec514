import { joinUrl, type MailApiProvider } from "./mail-api.js";

export interface SendgridApiOptions {
  readonly apiKey: string;
  /** Replaces `https://api.sendgrid.com` (`https://api.eu.sendgrid.com` for EU data residency; tests: a fake). */
  readonly baseUrl?: string | undefined;
}

/** The `message` of each entry of SendGrid's `{ errors: [...] }`, joined. */
function errorsOf(json: unknown): string | undefined {
  const errors = (json as { errors?: unknown } | null)?.errors;
  if (!Array.isArray(errors)) return undefined;
  const texts = errors
    .map((entry) => (entry as { message?: unknown } | null)?.message)
    .filter((text): text is string => typeof text === "string" && text !== "");
  return texts.length > 0 ? texts.join("; ") : undefined;
}

/** SendGrid's v3 `POST /v3/mail/send` (Bearer API key, JSON; 202 when accepted). */
export function sendgridApi(options: SendgridApiOptions): MailApiProvider {
  const url = joinUrl(options.baseUrl ?? "https://api.sendgrid.com", "/v3/mail/send");
  return {
    name: "sendgrid",
    secrets: [options.apiKey],
    request: (message) => ({
      url,
      headers: { authorization: `Bearer ${options.apiKey}`, "content-type": "application/json" },
      body: JSON.stringify({
        personalizations: [{ to: [{ email: message.to }] }],
        from: { email: message.from.address, ...(message.from.name ? { name: message.from.name } : {}) },
        subject: message.subject,
        // SendGrid wants text/plain before text/html.
        content: [
          { type: "text/plain", value: message.text },
          { type: "text/html", value: message.html },
        ],
      }),
    }),
    reason: ({ json }) => errorsOf(json),
  };
}
