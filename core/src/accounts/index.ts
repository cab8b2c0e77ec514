/** Accounts: users and their identities, their repositories and the steps that create them. */
export * from "./audit-actor.js";
export * from "./audit-payload.js";
export * from "./channel-identity.js";
export * from "./email.js";
export type * from "./factor.js";
export * from "./metadata.js";
export * from "./password-policy.js";
export * from "./phone.js";
export * from "./ports/audit-log.js";
export type * from "./ports/identity-repository.js";
export * from "./ports/password-hasher.js";
export type * from "./ports/user-factors.js";
export type * from "./ports/user-repository.js";
export * from "./steps/create-user.js";
export * from "./steps/drop-external-identities.js";
export * from "./steps/lock-user.js";
export * from "./steps/user-body.js";
export * from "./user.js";
