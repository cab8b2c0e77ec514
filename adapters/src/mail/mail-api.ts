import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { failures } from "@authsvc/core";
import type { Mail, Mailer } from "@authsvc/core/messaging";
import {
  type MailRenderOptions,
  type MailSender,
  mailRenderer,
  mailSender,
  validateRenderOptions,
} from "./mail-renderer.js";
import type { Warn } from "./template-source.js";
import { KIND_NAMES } from "./templates.js";

/** One rendered message, as a provider's API is given it. */
export interface MailApiMessage {
  /** One per mail, the same at every attempt: an idempotency key where the provider takes one. */
  readonly id: string;
  readonly from: MailSender;
  readonly to: string;
  readonly subject: string;
  readonly text: string;
  readonly html: string;
}

/** The HTTP request that hands `MailApiMessage` to a provider (always a POST). */
export interface MailApiRequest {
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/** A provider's answer, read whole. */
export interface MailApiAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly text: string;
  /** The parsed JSON body; undefined when it is not JSON. */
  readonly json: unknown;
}

/** What differs between providers: how a message is asked for, and how their answers read. */
export interface MailApiProvider {
  /** The provider's name, in log lines and the failure's cause (`resend`, `ses`, …). */
  readonly name: string;
  /** The request for `message`; `now` is the time it is signed at, where the provider signs requests. */
  request(message: MailApiMessage, now: Date): MailApiRequest;
  /** The provider's words for a refusal (its error message and code), or undefined. */
  reason(answer: MailApiAnswer): string | undefined;
  /** Credentials that must never reach a log line, even when the provider echoes them. */
  readonly secrets: readonly string[];
}

export interface ApiMailerOptions extends MailRenderOptions {
  readonly provider: MailApiProvider;
  /** From is `senderName <adminEmail>`; the bare address when the name is empty or the address itself. */
  readonly senderName: string;
  readonly adminEmail: string;
  /** Each attempt's whole request and answer, in ms. Default 10 s. */
  readonly timeoutMs?: number;
  /** Attempts at most, the first included, while the failure is one that may pass. Default 3. */
  readonly attempts?: number;
  /** The first wait between attempts without a `Retry-After`, doubled each time, in ms. Default 250. */
  readonly backoffMs?: number;
  /** The longest `Retry-After` waited for; a longer one fails the mail at once. In ms. Default 5 s. */
  readonly maxRetryAfterMs?: number;
  readonly now?: () => Date;
}

/** How an attempt went: accepted, or refused for a reason that may pass (retried) or will not. */
type Outcome =
  | { readonly ok: true }
  | {
      readonly ok: false;
      readonly retryable: boolean;
      readonly status?: number;
      readonly reason: string;
      /** What the provider asked to wait before the next attempt (`Retry-After`), in ms. */
      readonly retryAfterMs?: number;
    };

/** `Retry-After` in ms (delta-seconds or an HTTP date), or undefined when absent or unreadable. */
export function retryAfterMs(value: string | string[] | undefined, now: Date): number | undefined {
  const raw = Array.isArray(value) ? value[0] : value;
  if (raw === undefined || raw.trim() === "") return undefined;
  if (/^\s*\d+\s*$/.test(raw)) return Number(raw) * 1000;
  const at = Date.parse(raw);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now.getTime());
}

/**
 * Statuses whose refusal may pass on its own: a timeout, a rate limit, the provider's own trouble.
 * Every other 4xx (a wrong key, an unverified sender, a refused recipient) fails at once.
 */
const RETRYABLE_STATUSES = new Set([408, 409, 425, 429, 500, 502, 503, 504]);

/** The provider's words without credentials and without the recipient's address (log lines carry no addresses). */
function scrubbed(text: string, secrets: readonly string[], to: string): string {
  let out = text.trim() || "unknown error";
  for (const secret of [...secrets, to]) if (secret) out = out.split(secret).join("[redacted]");
  return out.length > 500 ? `${out.slice(0, 500)}…` : out;
}

async function attempt(request: MailApiRequest, timeoutMs: number): Promise<MailApiAnswer> {
  // undici is loaded by the first mail, not at start: only servers mailing through an API need it.
  const { request: send } = await import("undici");
  const res = await send(request.url, {
    method: "POST",
    headers: request.headers,
    body: request.body,
    signal: AbortSignal.timeout(timeoutMs),
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
  });
  const text = await res.body.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.statusCode, headers: res.headers, text, json };
}

function wireFailure(error: unknown, timeoutMs: number): string {
  if (!(error instanceof Error)) return "request failed";
  if (error.name === "TimeoutError" || error.name === "AbortError" || /timeout/i.test(error.name)) {
    return `no answer within ${timeoutMs} ms`;
  }
  const code = (error as { code?: unknown }).code;
  return error.message || (typeof code === "string" ? code : "request failed");
}

/**
 * Mail through a provider's HTTP API (Resend, Postmark, SES, SendGrid, Mailgun: see `*-api.ts`),
 * rendered as SMTP mail is (`mail-renderer.ts`). A message is handed over in one POST; a failure that
 * may pass (no answer, 408, 429, 5xx) is tried again, up to `attempts`, after the provider's
 * `Retry-After` when it gives one no longer than `maxRetryAfterMs` (a longer one fails at once: the
 * mail would arrive too late to be of use), else after a doubling backoff. Any other refusal fails at
 * once. Like `smtpMailer`, `send` then rejects with `email_send_failed` (`Error sending <kind> email`)
 * and the outbox withdraws the mail's code as for any mail; a warning says why (`mail not sent: …`
 * with the provider, the status and its words, credentials and the address blanked out).
 */
export function apiMailer(options: ApiMailerOptions): Mailer {
  const owner = `${options.provider.name}Mailer`;
  if (!options.adminEmail.includes("@")) throw new TypeError(`${owner}: adminEmail is not an email address`);
  validateRenderOptions(owner, options);
  const { provider } = options;
  const renderer = mailRenderer(options);
  const from = mailSender(options.senderName, options.adminEmail);
  const timeoutMs = options.timeoutMs ?? 10_000;
  const attempts = Math.max(1, options.attempts ?? 3);
  const backoffMs = options.backoffMs ?? 250;
  const maxRetryAfterMs = options.maxRetryAfterMs ?? 5_000;
  const now = options.now ?? (() => new Date());
  const warn: Warn = options.warn;

  async function once(message: MailApiMessage): Promise<Outcome> {
    let answer: MailApiAnswer;
    try {
      answer = await attempt(provider.request(message, now()), timeoutMs);
    } catch (error) {
      return { ok: false, retryable: true, reason: wireFailure(error, timeoutMs) };
    }
    if (answer.status >= 200 && answer.status < 300) return { ok: true };
    const words = provider.reason(answer) ?? `HTTP ${answer.status}`;
    const wait = retryAfterMs(answer.headers["retry-after"], now());
    return {
      ok: false,
      retryable: RETRYABLE_STATUSES.has(answer.status),
      status: answer.status,
      reason: words,
      ...(wait !== undefined ? { retryAfterMs: wait } : {}),
    };
  }

  return {
    async send(mail: Mail) {
      const message = { id: randomUUID(), from, to: mail.to, ...(await renderer.render(mail)) };
      let outcome: Outcome = { ok: false, retryable: false, reason: "not tried" };
      let tried = 0;
      for (; tried < attempts; ) {
        outcome = await once(message);
        tried++;
        if (outcome.ok || !outcome.retryable || tried === attempts) break;
        const wait = outcome.retryAfterMs ?? backoffMs * 2 ** (tried - 1);
        if (wait > maxRetryAfterMs) break;
        await sleep(wait);
      }
      if (outcome.ok) return;
      const reason = scrubbed(outcome.reason, provider.secrets, mail.to);
      warn(
        {
          mail_kind: mail.kind,
          mail_provider: provider.name,
          ...(outcome.status !== undefined ? { mail_api_status: outcome.status } : {}),
          mail_api_error: reason,
          mail_api_attempts: tried,
          ...(outcome.retryAfterMs !== undefined ? { mail_api_retry_after_ms: outcome.retryAfterMs } : {}),
        },
        outcome.retryable
          ? `mail not sent: ${provider.name} did not accept it after ${tried} attempt(s)`
          : `mail not sent: ${provider.name} refused it`,
      );
      const error = failures.emailSendFailed(KIND_NAMES[mail.kind]);
      error.cause = new Error(`${provider.name}: ${reason}`);
      throw error;
    },
  };
}

/** `Name <address>` as a header writes it (the name quoted when it holds specials), or the bare address. */
export function formatAddress(sender: MailSender): string {
  if (sender.name === undefined) return sender.address;
  const name = /[()<>[\]:;@\\,."]/.test(sender.name)
    ? `"${sender.name.replace(/(["\\])/g, "\\$1")}"`
    : sender.name;
  return `${name} <${sender.address}>`;
}

/** A string field of a parsed JSON object, or undefined. */
export function field(value: unknown, key: string): string | undefined {
  if (value === null || typeof value !== "object") return undefined;
  const found = (value as Record<string, unknown>)[key];
  return typeof found === "string" ? found : typeof found === "number" ? String(found) : undefined;
}

/** Joins a base URL (with or without a path and trailing slash) and an API path. */
export const joinUrl = (baseUrl: string, path: string): string => `${baseUrl.replace(/\/+$/, "")}${path}`;
