import { type Config, EXTERNAL_PROVIDERS } from "../config/types.js";
import type { Settings } from "../routes/settings.js";

/** The public `/settings` document for a configuration. */
export function settingsOf(config: Config): Settings {
  const providers = Object.fromEntries(EXTERNAL_PROVIDERS.map((id) => [id, config.external[id].enabled]));
  return {
    external: {
      ...(providers as Record<(typeof EXTERNAL_PROVIDERS)[number], boolean>),
      email: config.external.email.enabled,
      phone: config.external.phone.enabled,
      anonymous_users: config.external.anonymousUsers.enabled,
    },
    disable_signup: config.disableSignup,
    autoconfirm: config.mailer.autoconfirm,
    mailer_autoconfirm: config.mailer.autoconfirm,
    phone_autoconfirm: config.sms.autoconfirm,
    sms_provider: config.sms.provider ?? "",
    saml_enabled: config.sso.enabled,
    saml_private_key_next_configured: config.sso.enabled && config.sso.privateKeyNext !== undefined,
    passkeys_enabled: config.passkeys.enabled,
  };
}
