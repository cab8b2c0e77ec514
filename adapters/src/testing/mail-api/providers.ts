import { type ApiReply, at, jsonOf, type MailApiFake, randomId, startMailApiFake } from "./fake-api.js";

/**
 * A message to this address is refused by every fake, permanently, in its provider's words for such a
 * refusal (a sandbox or inactive recipient; SendGrid, which refuses no recipient at once, an unverified sender).
 */
export const REFUSED_RECIPIENT = "refused@example.com";

const bearer = (headers: { authorization?: string | undefined }) =>
  /^Bearer (.+)$/.exec(headers.authorization ?? "")?.[1];

const resendError = (status: number, name: string, message: string): ApiReply => ({
  status,
  body: { statusCode: status, message, name },
});

/**
 * Resend's `POST /emails`: Bearer key, JSON `{from, to[], subject, html, text}`; 200 `{id}`. A repeated
 * `Idempotency-Key` answers the first request's id without sending again.
 */
export function startResendFake(apiKey: string): Promise<MailApiFake> {
  const byKey = new Map<string, string>();
  return startMailApiFake({
    serverError: resendError(500, "internal_server_error", "An unexpected error occurred."),
    unavailable: resendError(503, "service_unavailable", "Service unavailable."),
    rateLimited: (retryAfter) => ({
      ...resendError(
        429,
        "rate_limit_exceeded",
        "Too many requests. You can only make 2 requests per second.",
      ),
      ...(retryAfter !== undefined ? { headers: { "retry-after": retryAfter } } : {}),
    }),
    handle(request, accept) {
      const key = bearer(request.headers);
      if (key === undefined)
        return resendError(401, "missing_api_key", "Missing API key in the authorization header.");
      if (key !== apiKey) return resendError(403, "invalid_api_key", "API key is invalid");
      if (request.method !== "POST" || request.path !== "/emails")
        return resendError(404, "not_found", "Not found");
      const body = jsonOf(request);
      const to = at(body, "to", 0);
      if (!to.includes("@")) return resendError(422, "validation_error", "Invalid `to` field.");
      if (to === REFUSED_RECIPIENT) {
        return resendError(
          403,
          "validation_error",
          `You can only send testing emails to your own email address. To send to ${to}, verify a domain.`,
        );
      }
      const idempotency = request.headers["idempotency-key"];
      const seen = typeof idempotency === "string" ? byKey.get(idempotency) : undefined;
      if (seen !== undefined) return { status: 200, body: { id: seen } };
      const id = accept({
        from: at(body, "from"),
        to,
        subject: at(body, "subject"),
        text: at(body, "text"),
        html: at(body, "html"),
      });
      if (typeof idempotency === "string") byKey.set(idempotency, id);
      return { status: 200, body: { id } };
    },
  });
}

const postmarkError = (status: number, code: number, message: string): ApiReply => ({
  status,
  body: { ErrorCode: code, Message: message },
});

/** Postmark's `POST /email`: `X-Postmark-Server-Token`, JSON `{From, To, Subject, HtmlBody, TextBody, MessageStream}`. */
export function startPostmarkFake(serverToken: string): Promise<MailApiFake> {
  return startMailApiFake({
    serverError: { status: 500, body: "Internal Server Error" },
    unavailable: { status: 503, body: "Service Unavailable" },
    rateLimited: (retryAfter) => ({
      ...postmarkError(429, 429, "Rate limit exceeded."),
      ...(retryAfter !== undefined ? { headers: { "retry-after": retryAfter } } : {}),
    }),
    handle(request, accept) {
      if (request.headers["x-postmark-server-token"] !== serverToken) {
        return postmarkError(
          401,
          10,
          "The Server Token you provided in the X-Postmark-Server-Token request header was invalid. Please verify that you are using a valid token.",
        );
      }
      if (request.method !== "POST" || request.path !== "/email") return postmarkError(404, 404, "Not found");
      const body = jsonOf(request);
      if (body === undefined) return postmarkError(422, 402, "Received invalid JSON input.");
      const to = at(body, "To");
      if (!to.includes("@")) return postmarkError(422, 300, `Invalid 'To' address: '${to}'.`);
      if (to === REFUSED_RECIPIENT) {
        return postmarkError(
          422,
          406,
          "You tried to send to recipient(s) that have been marked as inactive. Found inactive addresses: refused@example.com.",
        );
      }
      if (at(body, "MessageStream") !== "outbound") {
        return postmarkError(
          422,
          1235,
          `The message stream '${at(body, "MessageStream")}' does not exist on this server.`,
        );
      }
      const id = accept({
        from: at(body, "From"),
        to,
        subject: at(body, "Subject"),
        text: at(body, "TextBody"),
        html: at(body, "HtmlBody"),
      });
      return {
        status: 200,
        body: { To: to, SubmittedAt: new Date().toISOString(), MessageID: id, ErrorCode: 0, Message: "OK" },
      };
    },
  });
}

const sendgridError = (status: number, message: string, field: string | null = null): ApiReply => ({
  status,
  body: { errors: [{ message, field, help: null }] },
});

/** SendGrid's `POST /v3/mail/send`: Bearer key, JSON personalizations; 202 with `X-Message-Id`, no body. */
export function startSendgridFake(apiKey: string): Promise<MailApiFake> {
  return startMailApiFake({
    serverError: sendgridError(500, "Internal server error"),
    unavailable: sendgridError(503, "Service unavailable"),
    rateLimited: (retryAfter) => ({
      ...sendgridError(429, "too many requests"),
      ...(retryAfter !== undefined ? { headers: { "retry-after": retryAfter } } : {}),
    }),
    handle(request, accept) {
      if (bearer(request.headers) !== apiKey) {
        return sendgridError(401, "The provided authorization grant is invalid, expired, or revoked");
      }
      if (request.method !== "POST" || request.path !== "/v3/mail/send")
        return sendgridError(404, "Not found");
      const body = jsonOf(request);
      const to = at(body, "personalizations", 0, "to", 0, "email");
      if (!to.includes("@")) {
        return sendgridError(400, "Does not contain a valid address.", "personalizations.0.to.0.email");
      }
      if (to === REFUSED_RECIPIENT) {
        return sendgridError(403, "The from address does not match a verified Sender Identity.", "from");
      }
      const content = (body?.content ?? []) as { type?: string; value?: string }[];
      if (content[0]?.type !== "text/plain") {
        return sendgridError(400, "The text/plain content type must be first.", "content");
      }
      const name = at(body, "from", "name");
      const address = at(body, "from", "email");
      const id = accept({
        from: name ? `${name} <${address}>` : address,
        to,
        subject: at(body, "subject"),
        text: content.find((part) => part.type === "text/plain")?.value ?? "",
        html: content.find((part) => part.type === "text/html")?.value ?? "",
      });
      return { status: 202, headers: { "x-message-id": id } };
    },
  });
}

/** Mailgun's `POST /v3/<domain>/messages`: Basic `api:<key>`, a form; 200 `{id, message}`. */
export function startMailgunFake(apiKey: string, domain: string): Promise<MailApiFake> {
  const expected = `Basic ${Buffer.from(`api:${apiKey}`).toString("base64")}`;
  return startMailApiFake({
    serverError: { status: 500, body: { message: "Internal Server Error" } },
    unavailable: { status: 503, body: "Service Unavailable" },
    rateLimited: (retryAfter) => ({
      status: 429,
      body: { message: "Too many requests" },
      ...(retryAfter !== undefined ? { headers: { "retry-after": retryAfter } } : {}),
    }),
    handle(request, accept) {
      if (request.headers.authorization !== expected) return { status: 401, body: "Forbidden" };
      const match = /^\/v3\/([^/]+)\/messages$/.exec(request.path);
      if (request.method !== "POST" || !match) return { status: 404, body: { message: "Not Found" } };
      if (decodeURIComponent(match[1] ?? "") !== domain) {
        return { status: 404, body: { message: `Domain not found: ${decodeURIComponent(match[1] ?? "")}` } };
      }
      const form = new URLSearchParams(request.body);
      const to = form.get("to") ?? "";
      if (!to.includes("@")) {
        return {
          status: 400,
          body: { message: "to parameter is not a valid address. please check documentation" },
        };
      }
      if (to === REFUSED_RECIPIENT) {
        return {
          status: 403,
          body: {
            message: `Domain ${domain} is not allowed to send: Free accounts are for test purposes only. Please upgrade or add the address to authorized recipients in Account Settings.`,
          },
        };
      }
      const id = accept({
        from: form.get("from") ?? "",
        to,
        subject: form.get("subject") ?? "",
        text: form.get("text") ?? "",
        html: form.get("html") ?? "",
      });
      return { status: 200, body: { id: `<${id}@${domain}>`, message: "Queued. Thank you." } };
    },
  });
}

export { randomId };
