import type { Composed, Transactor } from "./kernel/index.js";
import type { Slices } from "./slices.js";

/**
 * Every slice's repositories (`SLICES`), bound to one connection or transaction. Where slices name
 * one repository with different ports (MFA's full factor store, the others' reads of factors), it
 * offers all of them. A type rather than an interface, so that `Object.entries` over the
 * repositories sees their ports.
 */
export type Repositories = Composed<Slices, "repositories">;

/**
 * The database. Reads may use the repositories directly; a change that spans several writes runs in
 * `transaction`, which commits when the callback resolves and rolls back when it throws. Expected
 * failures are returned from the callback (so what was written before them commits), never thrown.
 * What a slice keeps outside any transaction (the hooks' functions: a hook runs with no transaction
 * of a use case open) is the store's alone.
 */
export interface Store extends Repositories, Composed<Slices, "store">, Transactor<Repositories> {}
