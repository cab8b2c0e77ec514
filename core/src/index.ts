export * from "./errors.js";
export type * from "./ports/index.js";
export * from "./result.js";
