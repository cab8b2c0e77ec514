import { createRequire } from "node:module";
import { failures } from "@authsvc/core";
import type { Mail, Mailer, MailKind } from "@authsvc/core/messaging";
import type * as Nodemailer from "nodemailer";
import { type MailRenderOptions, mailRenderer, mailSender, validateRenderOptions } from "./mail-renderer.js";
import type { Warn } from "./template-source.js";
import { KIND_NAMES } from "./templates.js";

export interface SmtpMailerOptions extends MailRenderOptions {
  readonly host: string;
  readonly port: number;
  readonly user?: string | undefined;
  readonly pass?: string | undefined;
  /** From is `senderName <adminEmail>`; the bare address when the name is empty or the address itself. */
  readonly senderName: string;
  readonly adminEmail: string;
  /**
   * Never send in clear: on port 465 TLS is implicit anyway; on any other port the server must offer
   * STARTTLS and the upgrade must succeed (certificate checked), else nothing is sent. Default false:
   * STARTTLS when offered.
   */
  readonly requireTls?: boolean;
  /** SMTP sessions open at once; more messages wait for one. Default 16. */
  readonly maxConnections?: number;
  /** SMTP connection, greeting and socket timeouts, in ms. Default 10 s. */
  readonly timeoutMs?: number;
}

/**
 * Nodemailer's codes for a session that could not be set up (connection, TLS, authentication): their
 * messages say why and hold neither addresses nor credentials, unlike a refused recipient's.
 */
const SESSION_FAILURES: Readonly<Record<string, string>> = {
  ETLS: "the mail server's TLS could not be used (STARTTLS not offered while TLS is required, or the upgrade or certificate check failed): nothing was sent in clear",
  ECONNECTION: "the mail server could not be reached or closed the connection",
  ETIMEDOUT: "the mail server did not answer in time",
  ESOCKET:
    "the connection to the mail server failed (a TLS certificate that did not verify, or a network error)",
  EAUTH: "the mail server refused the credentials",
  EDNS: "the mail server's name did not resolve",
};

function warnSessionFailure(warn: Warn, kind: MailKind, cause: unknown): void {
  const code = (cause as { code?: unknown } | null)?.code;
  if (typeof code !== "string" || !(code in SESSION_FAILURES)) return;
  const reason = cause instanceof Error ? cause.message : String(cause);
  warn(
    { mail_kind: kind, smtp_error_code: code, smtp_error: reason },
    `mail not sent: ${SESSION_FAILURES[code]}`,
  );
}

/** How long an SMTP session is kept open with nothing to send. */
const SMTP_IDLE_MS = 5_000;

/** The SMTP mailer; `close` releases the transport (tests and shutdown). */
export type SmtpMailer = Mailer & { close(): void };

function validate(options: SmtpMailerOptions): void {
  if (options.host === "") throw new TypeError("smtpMailer: host is empty");
  if (!Number.isInteger(options.port) || options.port < 1 || options.port > 65535) {
    throw new TypeError(`smtpMailer: port ${options.port} is not a TCP port`);
  }
  if (!options.adminEmail.includes("@")) {
    throw new TypeError("smtpMailer: adminEmail is not an email address");
  }
  validateRenderOptions("smtpMailer", options);
}

/**
 * Mail over SMTP with nodemailer, over a pool of sessions. Port 465 speaks TLS from the start;
 * other ports upgrade with STARTTLS when the server offers it, or must (`requireTls`). The server's
 * certificate is checked against Node's CA store (NODE_EXTRA_CA_CERTS adds a private CA). Each mail has an HTML part (the custom
 * template of its kind when configured and reachable, else the built-in one) and a plain-text part.
 *
 * `send` rejects with `failures.emailSendFailed(kind)` (`email_send_failed`, "Error sending <kind> email") when the
 * message was not accepted (server unreachable or silent, authentication refused, recipient or message
 * rejected); the transport's error is its `cause`. A failure to connect, secure or authenticate the
 * session is also warned about with the transport's code and reason (no address, no credential in it),
 * so that the operator sees why, say, TLS was refused.
 */
export function smtpMailer(options: SmtpMailerOptions): SmtpMailer {
  validate(options);
  const timeoutMs = options.timeoutMs ?? 10_000;
  const renderer = mailRenderer(options);
  // Required here, not imported at the top: only servers configured with an SMTP host load nodemailer.
  const { createTransport } = createRequire(import.meta.url)("nodemailer") as typeof Nodemailer;
  const transport = createTransport({
    host: options.host,
    port: options.port,
    secure: options.port === 465,
    requireTLS: options.requireTls === true,
    ...(options.user ? { auth: { user: options.user, pass: options.pass ?? "" } } : {}),
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
    dnsTimeout: timeoutMs,
    // The message is built from strings only; nodemailer must never read files or URLs for it.
    disableFileAccess: true,
    disableUrlAccess: true,
    // Pooled: a burst reuses open sessions instead of a connect, greeting and EHLO per message; an
    // idle session is closed before the server's own timeout would (nodemailer resends a message
    // a closed session had not begun).
    pool: true,
    maxConnections: options.maxConnections ?? 16,
    maxMessages: 100,
    idleTimeout: Math.min(SMTP_IDLE_MS, timeoutMs),
  });
  const sender = mailSender(options.senderName, options.adminEmail);
  const from = sender.name !== undefined ? { name: sender.name, address: sender.address } : sender.address;

  return {
    async send(mail: Mail) {
      const { subject, text, html } = await renderer.render(mail);
      try {
        const info = await transport.sendMail({ from, to: mail.to, subject, text, html });
        // With one recipient a refusal rejects; this guards the partial-acceptance shape all the same.
        if (info.rejected.length > 0) throw new Error(`recipient rejected: ${String(info.response)}`);
      } catch (cause) {
        warnSessionFailure(options.warn, mail.kind, cause);
        const error = failures.emailSendFailed(KIND_NAMES[mail.kind]);
        error.cause = cause;
        throw error;
      }
    },
    close: () => transport.close(),
  };
}
