import { type AuthDeps, type StoreTraits, storeTraits } from "@authsvc/core";
import pLimit from "p-limit";
import type { RequestDeadline } from "./deadline.js";
import { marked, type Traits, viewWith } from "./traits.js";

type Store = AuthDeps["store"];
type Repos = Parameters<Parameters<Store["transaction"]>[0]>[0];
type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** The request a bound store serves, as its shared `transaction` reads it. */
const BINDING = Symbol("binding");
type Bound = Mutable<Store> & {
  [BINDING]: {
    deadline: RequestDeadline;
    transactionCall: (call: (args: unknown[]) => unknown) => (...args: unknown[]) => unknown;
  };
};

/** Transactions run at once, per instance, by work done after its request was answered (deliveries). */
export const DELIVERY_TRANSACTIONS = 2;

/** The first argument with the client's address, unless the use case gave one. */
function addressed(args: unknown[], address: () => string | undefined): unknown[] {
  const [input, ...rest] = args;
  if (typeof input !== "object" || input === null) return args;
  if ((input as { ipAddress?: unknown }).ipAddress !== undefined) return args;
  return [{ ...input, ipAddress: address() }, ...rest];
}

/**
 * Builds, for one request, the store bound to its deadline, from what the store declares
 * (`StoreTraits`): each transaction asks the deadline before committing, as does each call declared
 * to commit on its own (`commits`), and the client's address is filled into each call declared
 * `addressed` (audit entries, the grants' inputs), in transactions or not. Use cases know nothing of
 * requests. What does not depend on the request is built once.
 */
export function storeBinder(
  store: Store,
  traits: StoreTraits = storeTraits,
): (deadline: RequestDeadline, address: () => string | undefined) => Store {
  // The transactions of deliveries (after the answer, many at once in a burst) share a few
  // connections; the rest of the pool stays with the requests being answered.
  const afterAnswer = pLimit(DELIVERY_TRANSACTIONS);
  const direct = marked(traits, (t) => t.commits === true || t.addressed === true);
  const inTransaction = marked(traits, (t) => t.addressed === true);
  // `transaction` is made once, on a layer between the store and each request's view, and finds its
  // request through `this`. A closure made per request and stored on the view kept every request's
  // objects alive until the next full collection: V8 promoted them all (GET /health: 2.6 MB per
  // young-generation collection, 6 KB with the layer), and full collections ran three times a second.
  const layer = Object.create(store) as Mutable<Store>;
  layer.transaction = function <T>(this: Bound, fn: (repos: Repos) => Promise<T>) {
    const { deadline, transactionCall } = this[BINDING];
    const run = () =>
      store.transaction(async (repos) => {
        const value = await fn(viewWith(repos, inTransaction, transactionCall));
        deadline.beginCommit();
        return value;
      });
    return deadline.released ? afterAnswer(run) : run();
  };
  return (deadline, address) => {
    const directCall = (call: (args: unknown[]) => unknown, t: Traits) => {
      if (t.commits && t.addressed) {
        return (...args: unknown[]) => {
          deadline.beginCommit();
          return call(addressed(args, address));
        };
      }
      if (t.commits) {
        return (...args: unknown[]) => {
          deadline.beginCommit();
          return call(args);
        };
      }
      return (...args: unknown[]) => call(addressed(args, address));
    };
    // Inside a transaction nothing commits before the transaction does.
    const transactionCall =
      (call: (args: unknown[]) => unknown) =>
      (...args: unknown[]) =>
        call(addressed(args, address));
    const bound = viewWith(layer, direct, directCall) as Bound;
    bound[BINDING] = { deadline, transactionCall };
    return bound;
  };
}
