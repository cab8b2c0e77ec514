import { sectionOf } from "../../config/sections/section.js";
import * as security from "../../config/sections/security.js";
import type { HttpModule } from "../module.js";

/** Password rules and the captcha check. */
export const securityModule: HttpModule = {
  name: "security",
  section: sectionOf(security),
  settings: (config) => security.securitySettings(config),
  statuses: {
    captcha_failed: 400,
    weak_password: 422,
  },
};
