/** Passkeys: WebAuthn credentials that sign a user in on their own, and the relying party's settings. */
export * from "./manage-passkeys.js";
export type * from "./passkey.js";
export type * from "./ports/passkey-store.js";
export type * from "./ports/webauthn.js";
export * from "./register-passkey.js";
export type * from "./settings.js";
export * from "./sign-in-with-passkey.js";
