import { sectionOf } from "../../config/sections/section.js";
import type { HttpModule } from "../../modules/module.js";
import * as mailApi from "./section.js";

/**
 * Mail through a provider's HTTP API: only its configuration; the mail module's mailer uses it
 * (infrastructure/mail/mailer.ts) when a provider is selected.
 */
export const mailApiModule: HttpModule = {
  name: "mail-api",
  section: sectionOf(mailApi),
};
