import type { Mail, Mailer, MailKind } from "@authsvc/core";
import { createTransport } from "nodemailer";

export interface SmtpMailerOptions {
  readonly host: string;
  readonly port: number;
  readonly user?: string | undefined;
  readonly pass?: string | undefined;
  readonly senderName: string;
  readonly adminEmail: string;
  readonly subjects: Readonly<Record<MailKind, string>>;
}

const HEADINGS: Record<MailKind, string> = {
  confirmation: "Confirm your signup",
  invite: "You have been invited",
  recovery: "Reset your password",
  magic_link: "Your magic link",
  email_change: "Confirm the change of your email address",
  reauthentication: "Confirm reauthentication",
};

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

/** A short HTML page with a heading and the link (and code), plus the same as plain text. */
function render(mail: Mail): { html: string; text: string } {
  const lines: string[] = [];
  const html: string[] = [`<h2>${escapeHtml(HEADINGS[mail.kind])}</h2>`];
  if (mail.newEmail) {
    lines.push(`Change your email address from ${mail.to} to ${mail.newEmail}.`);
    html.push(
      `<p>Change your email address from ${escapeHtml(mail.to)} to ${escapeHtml(mail.newEmail)}.</p>`,
    );
  }
  if (mail.confirmationUrl) {
    lines.push(`Follow this link: ${mail.confirmationUrl}`);
    html.push(`<p><a href="${escapeHtml(mail.confirmationUrl)}">Follow this link</a></p>`);
  }
  if (mail.token) {
    lines.push(`Or enter this code: ${mail.token}`);
    html.push(`<p>Or enter this code: ${escapeHtml(mail.token)}</p>`);
  }
  return { html: `<!doctype html><html><body>${html.join("")}</body></html>`, text: lines.join("\n") };
}

/**
 * Mail over SMTP with nodemailer. From is `SMTP_SENDER_NAME <SMTP_ADMIN_EMAIL>`; port 465 speaks TLS
 * from the start, other ports upgrade with STARTTLS when the server offers it.
 */
export function smtpMailer(options: SmtpMailerOptions): Mailer & { close(): void } {
  const transport = createTransport({
    host: options.host,
    port: options.port,
    secure: options.port === 465,
    ...(options.user ? { auth: { user: options.user, pass: options.pass ?? "" } } : {}),
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 20_000,
  });
  return {
    async send(mail) {
      const { html, text } = render(mail);
      await transport.sendMail({
        from: { name: options.senderName, address: options.adminEmail },
        to: mail.to,
        subject: options.subjects[mail.kind],
        text,
        html,
      });
    },
    close: () => transport.close(),
  };
}
