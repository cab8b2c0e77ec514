import type { FailureCatalogue } from "../kernel/index.js";

/** The passkeys slice's failures (the reference's internal/api/passkey_*.go). */
export const passkeysFailures = {
  passkeyDisabled: ["passkey_disabled", "Passkeys are disabled"],
  passkeySsoUser: ["validation_failed", "SSO users cannot register passkeys"],
  passkeyAnonymous: ["no_authorization", "Anonymous user not allowed to perform these actions"],
  passkeyNeedsAal2: ["insufficient_aal", "AAL2 required to manage passkeys"],
  tooManyPasskeys: ["too_many_passkeys", "Maximum number of passkeys reached"],
  webauthnChallengeNotFound: ["webauthn_challenge_not_found", "WebAuthn challenge not found"],
  webauthnChallengeExpired: ["webauthn_challenge_expired", "WebAuthn challenge has expired"],
  webauthnCredentialInvalid: ["webauthn_verification_failed", "Invalid credential response"],
  webauthnVerificationFailed: ["webauthn_verification_failed", "WebAuthn verification failed"],
  webauthnCredentialExists: ["webauthn_credential_exists", "This passkey is already registered"],
  passkeyNotFound: ["validation_failed", "Passkey not found"],
  passkeyNameMissing: ["validation_failed", "friendly_name is required"],
  passkeyNameTooLong: ["validation_failed", "friendly_name must be at most 120 bytes"],
  passkeyChallengeIdInvalid: ["validation_failed", "challenge_id must be a UUID"],
  passkeyCredentialMissing: ["validation_failed", "credential is required"],
} as const satisfies FailureCatalogue;
