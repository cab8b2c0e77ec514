/**
 * Runs changes in one database transaction. Each slice names the repositories it needs (`R`); the
 * store composed in `core/src/store.ts` serves them all.
 */
export interface Transactor<R> {
  /**
   * Runs `fn` with repositories bound to one transaction: commits when `fn` resolves, rolls back
   * when it throws. Expected failures are returned from `fn` (so what was written before them
   * commits), never thrown.
   */
  transaction<T>(fn: (repos: R) => Promise<T>): Promise<T>;
}
