import { apiMailer } from "@authsvc/adapters";
import type { Mailer } from "@authsvc/core/messaging";
import type { Logger } from "pino";
import type { Config } from "../../config/types.js";
import { MAIL_APIS } from "./providers.js";

/**
 * The mailer of the provider `MAILER_PROVIDER` selects, rendering as the SMTP mailer does (subjects,
 * templates, sender); undefined when none is selected.
 */
export function apiMailerOf(config: Config, logger: Logger): Mailer | undefined {
  const { mailApi } = config;
  if (mailApi.provider === undefined) return undefined;
  const api = MAIL_APIS.find((candidate) => candidate.id === mailApi.provider);
  // The loader accepts only the ids of the list and requires the sender with a provider.
  if (!api || config.smtp.adminEmail === undefined)
    throw new Error(`mail: no mail API "${mailApi.provider}"`);
  return apiMailer({
    provider: api.provider(mailApi.values as never),
    senderName: config.smtp.senderName ?? config.smtp.adminEmail,
    adminEmail: config.smtp.adminEmail,
    siteUrl: config.siteUrl,
    subjects: config.mailer.subjects,
    templates: config.mailer.templates,
    localized: config.mailer.localized,
    warn: (fields, msg) => logger.warn(fields, msg),
  });
}
