import type { AuthSettings } from "@authsvc/core";
import { signupSettings } from "../config/sections/external.js";
import { redirectSettings } from "../config/sections/general.js";
import { jwtSettings } from "../config/sections/jwt.js";
import { mailSettings } from "../config/sections/mail.js";
import { mfaSettings } from "../config/sections/mfa.js";
import { oauthServerSettings } from "../config/sections/oauth-server.js";
import { securitySettings } from "../config/sections/security.js";
import { sessionsSettings } from "../config/sections/sessions.js";
import { smsSettings } from "../config/sections/sms.js";
import type { Config } from "../config.js";

/** The use cases' view of the configuration, composed from each section's mapping. */
export function authSettingsOf(config: Config): AuthSettings {
  return {
    ...redirectSettings(config),
    mailer: mailSettings(config),
    sms: smsSettings(config),
    jwt: jwtSettings(config),
    ...securitySettings(config),
    sessions: sessionsSettings(config),
    signup: signupSettings(config),
    mfa: mfaSettings(config),
    oauthServer: oauthServerSettings(config),
  };
}
