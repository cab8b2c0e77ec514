import { sectionOf } from "../../config/sections/section.js";
import type { HttpModule } from "../../modules/module.js";
import { leakedPasswordsOf } from "./leaked-passwords.js";
import * as security from "./section.js";

/** Password rules and the captcha check. */
export const securityModule: HttpModule = {
  name: "security",
  section: sectionOf(security),
  settings: (config) => security.securitySettings(config),
  ports: ({ config, logger }) => ({ leakedPasswords: leakedPasswordsOf(config, logger) }),
  statuses: {
    captcha_failed: 400,
    weak_password: 422,
  },
};
