import type { HookDispatcher } from "./ports/hook-dispatcher.js";

/**
 * The ports the hook steps use. Optional in the use cases that run hooks: the composition root
 * always provides it (with nothing enabled unless configured); unit tests without it run no hook.
 */
export interface HooksDeps {
  readonly hooks: HookDispatcher;
}
