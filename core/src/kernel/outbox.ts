import { AuthError } from "./errors.js";
import type { DeliveryFailure, DeliveryQueue } from "./ports/delivery-queue.js";
import type { Transactor } from "./ports/transactor.js";
import { err, type Result } from "./result.js";
import { transactionRollingBackOn } from "./transaction.js";

/**
 * A message whose one-time token a transaction wrote: sent only once that transaction has committed,
 * so that no transaction or row lock stays open across the call to a mail server or SMS gateway.
 */
export interface Dispatch<R> {
  /**
   * Counts the message against a shared cap in one atomic statement of its own (outside any
   * transaction); resolves the refusal, or null.
   */
  readonly reserve?: () => Promise<AuthError | null>;
  /** The network call; rejects with an `AuthError` when the message was refused. Resolves its id, if any. */
  readonly send: () => Promise<string | undefined>;
  /**
   * The compensation of a message that did not leave, in a transaction of its own: removes its token
   * (so that a code nobody received cannot be used) and clears its `*_sent_at` (so that asking again
   * works at once). A user the failed request had created and the undo removes is told to
   * `removedUser`, for the log line of the failure.
   */
  readonly undo: (repos: R, removedUser: (userId: string) => void) => Promise<void>;
}

/** The messages a use case's transaction leaves to send, and what their sends answered. */
export class Outbox<R> {
  readonly #pending: Dispatch<R>[] = [];
  /** The ids the gateways answered, in the order the messages were added. */
  readonly receipts: string[] = [];

  /**
   * `later`: the sends run on this queue after the answer (the caps are still taken before it);
   * a failed send is then compensated and counted there, not answered. `reserved`: the caller has
   * already counted these messages against the caps (`Dispatch.reserve` is skipped).
   */
  constructor(readonly options: { readonly later?: DeliveryQueue; readonly reserved?: boolean } = {}) {}

  add(dispatch: Dispatch<R>): void {
    this.#pending.push(dispatch);
  }

  /** Adds `undo` to what runs when a message of this outbox does not leave (nothing is sent for it). */
  onUndo(undo: Dispatch<R>["undo"]): void {
    this.#pending.push({ send: async () => undefined, undo });
  }

  /** How many messages (and compensations) wait. */
  get size(): number {
    return this.#pending.length;
  }

  /** The id of the first message a gateway answered ("" when none did). */
  get messageId(): string {
    return this.receipts[0] ?? "";
  }

  /** Takes the messages added so far, leaving the outbox empty. */
  take(): Dispatch<R>[] {
    return this.#pending.splice(0);
  }
}

/**
 * Runs `fn` in a transaction (as `transactionRollingBackOn`), then — committed and successful —
 * sends what it left in `outbox`, all in parallel: no transaction is open during the sends. The shared
 * caps are taken first (one statement each); a refusal, or a send that fails, undoes every message of
 * the outbox in a new transaction (`Dispatch.undo`) and answers that failure; the rest of what `fn`
 * committed stays. A failure returned by `fn` undoes the messages it had added, unsent. With
 * `outbox.options.later`, the sends (and their undoing) run on that queue and the answer does not
 * wait for them.
 */
export async function transactionThenSend<R, T>(
  store: Transactor<R>,
  outbox: Outbox<R>,
  fn: (repos: R) => Promise<Result<T>>,
): Promise<Result<T>> {
  const result = await transactionRollingBackOn(store, fn);
  const dispatches = outbox.take();
  if (dispatches.length === 0) return result;
  if (!result.ok) {
    await undoAll(store, dispatches);
    return result;
  }
  const refused = await reserveAll(outbox, dispatches);
  if (refused !== null) {
    await undoAll(store, dispatches);
    return err(refused);
  }
  const { later } = outbox.options;
  if (later) {
    await later.enqueue(async (): Promise<DeliveryFailure | null> => {
      const failed = await sendOrUndo(store, outbox, dispatches);
      if (failed === null) return null;
      const { failure, removedUserIds } = failed;
      return { code: failure.code, message: failure.message, removedUserIds };
    });
    return result;
  }
  const failed = await sendOrUndo(store, outbox, dispatches);
  return failed === null ? result : err(failed.failure);
}

async function reserveAll<R>(
  outbox: Outbox<R>,
  dispatches: readonly Dispatch<R>[],
): Promise<AuthError | null> {
  if (outbox.options.reserved) return null;
  for (const dispatch of dispatches) {
    const refused = dispatch.reserve ? await dispatch.reserve() : null;
    if (refused) return refused;
  }
  return null;
}

/**
 * Sends every dispatch in parallel; on a failure undoes them all and resolves it with the users the
 * undoing removed (a fault rethrows).
 */
async function sendOrUndo<R>(
  store: Transactor<R>,
  outbox: Outbox<R>,
  dispatches: readonly Dispatch<R>[],
): Promise<{ failure: AuthError; removedUserIds: string[] } | null> {
  const settled = await Promise.allSettled(dispatches.map((dispatch) => dispatch.send()));
  let failure: unknown = null;
  for (const outcome of settled) {
    if (outcome.status === "rejected") failure ??= outcome.reason ?? new Error("send failed");
    else if (outcome.value !== undefined) outbox.receipts.push(outcome.value);
  }
  if (failure === null) return null;
  const removedUserIds = await undoAll(store, dispatches);
  if (failure instanceof AuthError) return { failure, removedUserIds };
  throw failure;
}

/** Undoes every dispatch in one transaction; resolves the ids of the users that went with them. */
async function undoAll<R>(store: Transactor<R>, dispatches: readonly Dispatch<R>[]): Promise<string[]> {
  return store.transaction(async (repos) => {
    const removed: string[] = [];
    for (const dispatch of dispatches) await dispatch.undo(repos, (userId) => removed.push(userId));
    return removed;
  });
}
