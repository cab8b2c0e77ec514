export * from "./domain/claims.js";
export type * from "./domain/session.js";
export type * from "./domain/settings.js";
export * from "./domain/user.js";
export * from "./errors.js";
export type * from "./ports/index.js";
export * from "./result.js";
