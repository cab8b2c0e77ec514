/**
 * @authsvc/core's root entry: what the slice list (`slices.ts`) and the failure catalogue
 * (`failures.ts`) compose from every slice. Each slice's own names are imported from its entry,
 * `@authsvc/core/<slice>` (`core/src/<slice>/index.ts`), so a new slice edits nothing here.
 */
export type { AuthDeps } from "./deps.js";
export { type FailureName, failureCodeOf, failureCodes, failures } from "./failures.js";
export { type DepsTraits, depsTraits, type StoreTraits, storeTraits } from "./port-traits.js";
export type { AuthSettings } from "./settings.js";
export type { Repositories, Store } from "./store.js";
