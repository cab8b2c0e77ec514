/** External sign-in: OAuth 2.0 / OpenID Connect providers, ID tokens, identity linking and unlinking. */
export { type CallbackFailure, completeExternalSignIn } from "./complete-external-sign-in.js";
export type * from "./ports/external-identities.js";
export type * from "./ports/external-provider.js";
export type * from "./settings.js";
export { DEFAULT_LINKING_DOMAIN, linkingDomainOf } from "./settings.js";
export { idTokenGrant, signInWithIdToken } from "./sign-in-with-id-token.js";
export { type StartedExternalSignIn, startExternalSignIn } from "./start-external-sign-in.js";
export { commitThenSend } from "./steps/commit-then-send.js";
export { externalAccount, vetExternalAccount } from "./steps/external-account.js";
export { afterFirstSignInRaces, FirstSignInRaceLost } from "./steps/first-sign-in-race.js";
export * from "./unlink-identity.js";
