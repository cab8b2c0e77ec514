export * from "./errors.js";
export * from "./result.js";
