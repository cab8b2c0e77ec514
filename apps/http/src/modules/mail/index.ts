import * as mail from "../../config/sections/mail.js";
import { sectionOf } from "../../config/sections/section.js";
import { mailerWithHooks } from "../../infrastructure/hooks/dispatcher.js";
import { mailerOf } from "../../wiring/mailer.js";
import type { HttpModule } from "../module.js";

/** Mail: the SMTP server, the templates and the send limits. */
export const mailModule: HttpModule = {
  name: "mail",
  section: sectionOf(mail),
  ports: ({ config, logger, shared }) => ({
    mailer: mailerWithHooks(config, shared.hooks, mailerOf(config, logger)),
  }),
  settings: (config) => ({ mailer: mail.mailSettings(config) }),
  statuses: {
    email_address_invalid: 400,
    email_address_not_authorized: 400,
    email_send_failed: 500,
    over_email_send_rate_limit: 429,
  },
};
