import { auditLogTraits, leakedPasswordsTraits, passwordHasherTraits } from "./accounts/index.js";
import { customProviderStoreTraits } from "./custom-providers/index.js";
import type { AuthDeps } from "./deps.js";
import { hookDispatcherTraits } from "./hooks/index.js";
import type { PortTraits } from "./kernel/index.js";
import { sessionStoreTraits } from "./sessions/index.js";
import type { Repositories } from "./store.js";
import { sendQuotaTraits } from "./verification/index.js";

/** The traits of every repository of the store, by repository. */
export type StoreTraits = { readonly [R in keyof Repositories]?: PortTraits<Repositories[R]> };

/**
 * The store's commit points, addressed writes and committed outcomes, as each slice declares them
 * beside its port. A new slice whose repository has any adds its declaration here.
 */
export const storeTraits: StoreTraits = {
  audit: auditLogTraits,
  sessions: sessionStoreTraits,
  quota: sendQuotaTraits,
  customProviders: customProviderStoreTraits,
};

/** The traits of the ports of `AuthDeps` other than the store, by port. */
export type DepsTraits = { readonly [K in Exclude<keyof AuthDeps, "store">]?: PortTraits<AuthDeps[K]> };

/** The ports whose waits are outside this process (see `MethodTraits.waitsOutside`). */
export const depsTraits: DepsTraits = {
  hasher: passwordHasherTraits,
  hooks: hookDispatcherTraits,
  leakedPasswords: leakedPasswordsTraits,
};
