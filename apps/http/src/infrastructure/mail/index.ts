import { sectionOf } from "../../config/sections/section.js";
import type { HttpModule } from "../../modules/module.js";
import { mailerWithHooks } from "../hooks/dispatcher.js";
import { mailerOf } from "./mailer.js";
import * as mail from "./section.js";

/** Mail: the SMTP server, the templates and the send limits. */
export const mailModule: HttpModule = {
  name: "mail",
  section: sectionOf(mail),
  publicSettings: (config) => ({
    autoconfirm: config.mailer.autoconfirm,
    mailer_autoconfirm: config.mailer.autoconfirm,
  }),
  ports: ({ config, logger, shared }) => ({
    mailer: mailerWithHooks(config, shared.hooks, mailerOf(config, logger)),
  }),
  settings: (config) => ({
    mailer: mail.mailSettings(config),
    notifications: config.mailer.notifications,
  }),
  statuses: {
    email_address_invalid: 400,
    email_address_not_authorized: 400,
    email_send_failed: 500,
    over_email_send_rate_limit: 429,
  },
};

declare module "../server/settings-view.js" {
  interface Settings {
    readonly autoconfirm: boolean;
    readonly mailer_autoconfirm: boolean;
  }
}
