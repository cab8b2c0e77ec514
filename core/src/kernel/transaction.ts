import { AuthError } from "./errors.js";
import type { Transactor } from "./ports/transactor.js";
import { err, type Result } from "./result.js";

/**
 * Runs `fn` in a transaction and answers its result; an `AuthError` thrown inside (a refused send,
 * or one passed to `orRollback`) rolls the whole transaction back and is answered as `err`. This is
 * how a message that could not be sent leaves neither its one-time token nor a `*_sent_at` behind.
 * An error returned (not thrown) by `fn` still commits what `fn` wrote, e.g. an audit entry.
 */
export async function transactionRollingBackOn<R, T>(
  store: Transactor<R>,
  fn: (repos: R) => Promise<Result<T>>,
): Promise<Result<T>> {
  try {
    return await store.transaction(fn);
  } catch (thrown) {
    if (thrown instanceof AuthError) return err(thrown);
    throw thrown;
  }
}

/** Unwraps `result` inside `transactionRollingBackOn`, throwing its error so that nothing commits. */
export function orRollback<T>(result: Result<T>): T {
  if (!result.ok) throw result.error;
  return result.value;
}
