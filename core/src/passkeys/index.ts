/** Passkeys: WebAuthn credentials that sign a user in on their own, and the relying party's settings. */
export {
  adminDeletePasskey,
  adminListPasskeys,
  deletePasskey,
  listPasskeys,
  renamePasskey,
} from "./manage-passkeys.js";
export type { CeremonyState, Passkey, WebauthnChallenge } from "./passkey.js";
export type * from "./ports/passkey-store.js";
export type {
  AssertionClaim,
  Ceremony,
  CeremonyFlavour,
  CredentialRef,
  KnownCredential,
  RegisteredCredential,
  RelyingParty,
  Verified,
  WebAuthn,
} from "./ports/webauthn.js";
export { finishPasskeyRegistration, startPasskeyRegistration } from "./register-passkey.js";
export type { PasskeysSliceSettings } from "./settings.js";
export * from "./sign-in-with-passkey.js";
