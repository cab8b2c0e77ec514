import { sectionOf } from "../../config/sections/section.js";
import type { HttpModule } from "../module.js";
import { adminSsoEndpoints } from "./admin-providers.js";
import { ssoPortsOf } from "./ports.js";
import * as sso from "./section.js";
import { ssoEndpoints } from "./sso.js";

/** SAML 2.0 single sign-on: SP-initiated and IdP-initiated sign-in, the SP metadata, the admin's providers. */
export const ssoModule: HttpModule = {
  name: "sso",
  section: sectionOf(sso),
  publicSettings: (config) => ({
    saml_enabled: config.sso.enabled,
    saml_private_key_next_configured: config.sso.enabled && config.sso.privateKeyNext !== undefined,
  }),
  settings: (config) => sso.ssoSettings(config),
  ports: (ctx) => ssoPortsOf(ctx),
  endpoints: [...ssoEndpoints, ...adminSsoEndpoints],
  statuses: {
    saml_provider_disabled: 404,
    sso_provider_not_found: 404,
    sso_provider_disabled: 404,
    saml_idp_not_found: 404,
    saml_relay_state_not_found: 404,
    saml_relay_state_expired: 422,
    saml_assertion_no_user_id: 400,
    saml_assertion_no_email: 400,
    saml_metadata_fetch_failed: 400,
    sso_domain_already_exists: 400,
    saml_entity_id_mismatch: 400,
    saml_idp_already_exists: 422,
    user_sso_managed: 422,
  },
  failureStatuses: {
    // ssoadmin.go: a provider write that clashes is 422 `conflict` (409 elsewhere).
    ssoResourceIdTaken: 422,
  },
};

declare module "../../infrastructure/server/settings-view.js" {
  interface Settings {
    readonly saml_enabled: boolean;
    /** A next SAML key is configured (`SAML_PRIVATE_KEY_NEXT`): a rotation is under way. */
    readonly saml_private_key_next_configured: boolean;
  }
}
