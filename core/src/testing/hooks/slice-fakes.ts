import { sliceFakes } from "../slice-fakes.js";
import { fakeHooks } from "./fake-hooks.js";

/** The hooks' dispatcher, with no hook configured. */
export const hooksFakes = sliceFakes({
  settings: {},
  deps: () => ({ hooks: fakeHooks().dispatcher }),
});
