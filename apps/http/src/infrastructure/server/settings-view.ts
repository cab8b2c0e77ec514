import type { Config } from "../../config/types.js";
import { EXTERNAL_PROVIDERS, type ExternalProviderId } from "../../modules/external/section.js";

/** The public settings document (spec "Settings", plus the reference's extra fields). */
export interface Settings {
  readonly external: Readonly<Record<ExternalProviderId | "email" | "phone" | "anonymous_users", boolean>>;
  readonly disable_signup: boolean;
  readonly autoconfirm: boolean;
  readonly mailer_autoconfirm: boolean;
  readonly phone_autoconfirm: boolean;
  readonly sms_provider: string;
  readonly saml_enabled: boolean;
  /** A next SAML key is configured (`SAML_PRIVATE_KEY_NEXT`): a rotation is under way. */
  readonly saml_private_key_next_configured: boolean;
  readonly passkeys_enabled: boolean;
}

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
