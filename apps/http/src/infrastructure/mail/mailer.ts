import { logMailer, smtpMailer } from "@authsvc/adapters";
import { failures } from "@authsvc/core";
import type { Mailer } from "@authsvc/core/messaging";
import type { Logger } from "pino";
import type { Config } from "../../config/types.js";
import { apiMailerOf } from "../mail-api/api-mailer.js";
import { logUnredacted } from "../telemetry/logger.js";
import { DELIVERY_CONCURRENCY } from "./deliveries.js";

/**
 * Where mail goes: the provider API `MAILER_PROVIDER` names; else SMTP when `SMTP_HOST` is set; in embedded mode without SMTP, the log (each mail's
 * link and code, unredacted: a developer follows the flow from there). Otherwise a mail that must go
 * out fails the request cleanly instead of vanishing.
 */
export function mailerOf(config: Config, logger: Logger): Mailer {
  const api = apiMailerOf(config, logger);
  if (api !== undefined) return api;
  const smtp = config.smtp;
  if (smtp.host !== undefined) {
    return smtpMailer({
      host: smtp.host,
      port: smtp.port,
      requireTls: smtp.requireTls,
      user: smtp.user,
      pass: smtp.pass,
      senderName: smtp.senderName,
      adminEmail: smtp.adminEmail,
      siteUrl: config.siteUrl,
      subjects: config.mailer.subjects,
      templates: config.mailer.templates,
      localized: config.mailer.localized,
      warn: (fields, msg) => logger.warn(fields, msg),
      // One session per delivery running at once.
      maxConnections: DELIVERY_CONCURRENCY,
    });
  }
  if (config.embedded) return logMailer((fields, msg) => logUnredacted(logger, fields, msg));
  return {
    async send() {
      throw failures.emailNotConfigured();
    },
  };
}
