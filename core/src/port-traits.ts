import type { AuthDeps } from "./deps.js";
import { mergeTraits, type PortTraits } from "./kernel/index.js";
import { SLICES } from "./slices.js";
import type { Repositories } from "./store.js";

/** The traits of every repository of the store, by repository. */
export type StoreTraits = { readonly [R in keyof Repositories]?: PortTraits<Repositories[R]> };

/**
 * The store's commit points, addressed writes and committed outcomes, as each slice declares them
 * beside its port and names them in its entry of `SLICES`.
 */
export const storeTraits: StoreTraits = mergeTraits(Object.values(SLICES), "storeTraits");

/** The traits of the ports of `AuthDeps` other than the store, by port. */
export type DepsTraits = { readonly [K in Exclude<keyof AuthDeps, "store">]?: PortTraits<AuthDeps[K]> };

/** The ports whose waits are outside this process (see `MethodTraits.waitsOutside`). */
export const depsTraits: DepsTraits = mergeTraits(Object.values(SLICES), "depsTraits");
