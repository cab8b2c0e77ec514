/** Auth hooks: the dispatcher port, payloads, and the steps the use cases call at each hook point. */

export { withAfterUserCreated } from "./after-user-created.js";
export * from "./hook-answer.js";
export { HOOK_NAMES, HOOK_PAYLOAD_NAMES, type HookName } from "./names.js";
export type { HookInputs } from "./payloads.js";
export * from "./ports/hook-dispatcher.js";
export type * from "./ports/hook-functions.js";
export * from "./steps.js";
