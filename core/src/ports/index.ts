export type * from "./audit-log.js";
export type * from "./clock.js";
export type * from "./mailer.js";
export type * from "./password-hasher.js";
export type * from "./random.js";
export type * from "./secret-tokens.js";
export type * from "./store.js";
export type * from "./token-signer.js";
