import { simpleWebAuthn } from "@authsvc/adapters";
import { sectionOf } from "../../config/sections/section.js";
import type { HttpModule } from "../module.js";
import { adminPasskeyEndpoints } from "./admin-passkeys.js";
import { passkeyEndpoints } from "./passkeys.js";
import * as passkeys from "./section.js";

/** Passkeys: WebAuthn credentials that sign a user in, their ceremonies, and the admin's view of them. */
export const passkeysModule: HttpModule = {
  name: "passkeys",
  section: sectionOf(passkeys),
  publicSettings: (config) => ({ passkeys_enabled: config.passkeys.enabled }),
  settings: (config) => passkeys.passkeysSettings(config),
  // The WebAuthn library is imported at start only where a ceremony can run; elsewhere at first use.
  ports: ({ config: { passkeys: p } }) => ({
    webauthn: simpleWebAuthn({ eager: p.enabled || p.mfaEnrollEnabled || p.mfaVerifyEnabled }),
  }),
  endpoints: [...passkeyEndpoints, ...adminPasskeyEndpoints],
  statuses: {
    passkey_disabled: 404,
    too_many_passkeys: 422,
    webauthn_challenge_not_found: 400,
    webauthn_challenge_expired: 400,
    webauthn_verification_failed: 400,
    webauthn_credential_exists: 422,
    mfa_webauthn_enroll_not_enabled: 422,
    mfa_webauthn_verify_not_enabled: 422,
  },
  failureStatuses: {
    // The reference's passkey_*.go: anonymous callers 403; a passkey not the caller's 404.
    passkeyAnonymous: 403,
    // The reference's "SSO users cannot register passkeys" is a 422 validation_failed.
    passkeySsoUser: 422,
    passkeyNotFound: 404,
  },
};

declare module "../../infrastructure/server/settings-view.js" {
  interface Settings {
    readonly passkeys_enabled: boolean;
  }
}
