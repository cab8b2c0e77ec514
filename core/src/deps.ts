import type { Composed } from "./kernel/index.js";
import type { Slices } from "./slices.js";
import type { Store } from "./store.js";

/**
 * Every port a use case may need: the intersection of the deps of every slice in `SLICES`, with the
 * whole store in place of each slice's part of it. Each use case names the subset it uses with `Pick`.
 */
export interface AuthDeps extends Omit<Composed<Slices, "deps">, "store"> {
  readonly store: Store;
}
