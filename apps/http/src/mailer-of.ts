import { logMailer, smtpMailer } from "@authsvc/adapters";
import { failures, type Mailer, type MailKind } from "@authsvc/core";
import type { Logger } from "pino";
import type { Config, MailKind as ConfigMailKind } from "./config.js";
import { logUnredacted } from "./logger.js";

/** Configuration keys (camelCase) by the Mailer port's kinds. */
const CONFIG_KEY: Readonly<Record<MailKind, ConfigMailKind>> = {
  confirmation: "confirmation",
  invite: "invite",
  recovery: "recovery",
  magic_link: "magicLink",
  email_change: "emailChange",
  reauthentication: "reauthentication",
};

function byMailKind<T>(values: Readonly<Partial<Record<ConfigMailKind, T>>>): Partial<Record<MailKind, T>> {
  const out: Partial<Record<MailKind, T>> = {};
  for (const [kind, key] of Object.entries(CONFIG_KEY) as [MailKind, ConfigMailKind][]) {
    const value = values[key];
    if (value !== undefined) out[kind] = value;
  }
  return out;
}

/**
 * Where mail goes: SMTP when `SMTP_HOST` is set; in embedded mode without SMTP, the log (each mail's
 * link and code, unredacted: a developer follows the flow from there). Otherwise a mail that must go
 * out fails the request cleanly instead of vanishing.
 */
export function mailerOf(config: Config, logger: Logger): Mailer {
  const smtp = config.smtp;
  if (smtp.host !== undefined) {
    return smtpMailer({
      host: smtp.host,
      port: smtp.port,
      user: smtp.user,
      pass: smtp.pass,
      senderName: smtp.senderName,
      adminEmail: smtp.adminEmail,
      siteUrl: config.siteUrl,
      subjects: byMailKind(config.mailer.subjects),
      templates: byMailKind(config.mailer.templates),
      warn: (fields, msg) => logger.warn(fields, msg),
    });
  }
  if (config.embedded) return logMailer((fields, msg) => logUnredacted(logger, fields, msg));
  return {
    async send() {
      throw failures.emailNotConfigured();
    },
  };
}
