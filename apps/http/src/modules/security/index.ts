import { sectionOf } from "../../config/sections/section.js";
import * as security from "../../config/sections/security.js";
import { leakedPasswordsOf } from "../../wiring/leaked-passwords.js";
import type { HttpModule } from "../module.js";

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
