import type { Mail, Mailer } from "@authsvc/core/messaging";

/** What the log mailer writes with; pino's `Logger` fits. */
export interface MailLog {
  info(fields: Record<string, unknown>, msg: string): void;
}

/**
 * The embedded development mode's mailer when no `SMTP_HOST` is set: each mail becomes one log line
 * with its link and code, so a developer can follow the flow without a mail server. `write` must
 * bypass log redaction (links and codes are the point here); never used with a real database.
 */
export function logMailer(write: (fields: Record<string, unknown>, msg: string) => void): Mailer {
  return {
    async send(mail: Mail) {
      write(
        {
          mail_kind: mail.kind,
          mail_to: mail.to,
          mail_link: mail.confirmationUrl,
          mail_code: mail.token,
          mail_new_email: mail.newEmail,
        },
        `development mail (${mail.kind}) to ${mail.to}: not sent, no SMTP_HOST configured`,
      );
    },
  };
}
