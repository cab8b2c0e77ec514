/** Auth hooks: the dispatcher port, payloads, and the steps the use cases call at each hook point. */
export * from "./access-token-claims.js";
export * from "./hook-answer.js";
export * from "./names.js";
export type * from "./payloads.js";
export * from "./ports/hook-dispatcher.js";
export type * from "./ports/hook-functions.js";
export * from "./steps.js";
