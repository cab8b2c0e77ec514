import type { RelyingParty } from "./ports/webauthn.js";

/** Passkeys (`PASSKEY_*`) and the relying party shared with WebAuthn factors (`WEBAUTHN_*`). */
export interface PasskeysSettings {
  /** Whether `/passkeys/*` answers (`PASSKEY_ENABLED`); the admin endpoints answer regardless. */
  readonly enabled: boolean;
  /** Passkeys one user may have (`PASSKEY_MAX_PASSKEYS_PER_USER`). */
  readonly maxPerUser: number;
  /** Seconds a ceremony's challenge may be answered (`WEBAUTHN_CHALLENGE_EXPIRY_DURATION`). */
  readonly challengeExpiry: number;
}

/** WebAuthn as a second factor (`MFA_WEB_AUTHN_*`). */
export interface WebauthnFactorSettings {
  readonly enrollEnabled: boolean;
  readonly verifyEnabled: boolean;
}

/** The settings of the passkeys slice, as they appear in `AuthSettings`. */
export interface PasskeysSliceSettings {
  readonly passkeys: PasskeysSettings;
  readonly webauthn: {
    readonly rp: RelyingParty;
    readonly mfa: WebauthnFactorSettings;
  };
}
