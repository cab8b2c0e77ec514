import { sectionOf } from "../../config/sections/section.js";
import type { HttpModule } from "../module.js";
import { externalEndpoints } from "./external.js";
import { externalProvidersOf } from "./external-providers.js";
import { idTokenHttpGrant } from "./id-token-grant.js";
import type { ExternalProviderId } from "./section.js";
import * as external from "./section.js";

/** Sign-in with an external provider (the OAuth client), the `id_token` grant and identity linking. */
export const externalModule: HttpModule = {
  name: "external",
  section: sectionOf(external),
  publicSettings: (config) => ({ external: external.externalSettings(config) }),
  ports: ({ config }) => ({ providers: externalProvidersOf(config) }),
  settings: (config) => ({ signup: external.signupSettings(config) }),
  endpoints: externalEndpoints,
  grants: [idTokenHttpGrant],
  statuses: {
    provider_email_needs_verification: 422,
    bad_oauth_state: 400,
    bad_oauth_callback: 400,
    oauth_provider_not_supported: 400,
    provider_disabled: 404,
    identity_already_exists: 422,
    identity_not_found: 422,
    single_identity_not_deletable: 422,
    email_conflict_identity_not_deletable: 422,
    manual_linking_disabled: 404,
  },
  failureStatuses: {
    linkingTargetMissing: 422,
    identityIdNotUuid: 404,
    idTokenProviderDisabled: 400,
    linkedEmailNeedsVerification: 422,
  },
};

declare module "../../infrastructure/server/settings-view.js" {
  interface Settings {
    readonly external: Readonly<Record<ExternalProviderId | "email" | "phone" | "anonymous_users", boolean>>;
  }
}
