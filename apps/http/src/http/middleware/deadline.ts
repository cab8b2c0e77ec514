import { AsyncLocalStorage } from "node:async_hooks";
import type { AuthDeps, DeliveryQueue } from "@authsvc/core";
import type { MiddlewareHandler } from "hono";
import { HTTPException } from "hono/http-exception";
import type { AppEnv } from "../app-env.js";
import { httpFailures } from "../http-failures.js";

type Job = Parameters<DeliveryQueue["enqueue"]>[0];

/** Thrown (inside the transaction, so that it rolls back) by a commit attempted after the deadline. */
export class DeadlinePassedError extends Error {
  override readonly name = "DeadlinePassedError";
  constructor() {
    super("the request's deadline passed before its change could commit");
  }
}

/**
 * One request's deadline. Until the request commits anything it may still be answered 504 (then
 * `expired`: every later commit refuses, so the answer tells the truth); once a commit has begun, the
 * outcome is what counts, and the timeout waits for it. Deliveries the request queued are held until
 * its outcome is known: dropped with a 504, handed over otherwise.
 */
class RequestDeadline {
  #expired = false;
  #committed = false;
  readonly #held: Job[] = [];

  get expired(): boolean {
    return this.#expired;
  }

  /** Called right before a commit (or an autocommit write): refuses once the request timed out. */
  beginCommit(): void {
    if (this.#expired) throw new DeadlinePassedError();
    this.#committed = true;
  }

  /** Marks the request timed out unless a commit has begun; answers whether it did. */
  expire(): boolean {
    if (this.#committed) return false;
    this.#expired = true;
    this.#held.length = 0;
    return true;
  }

  hold(job: Job): boolean {
    if (this.#expired) return true;
    this.#held.push(job);
    return true;
  }

  async release(queue: DeliveryQueue): Promise<void> {
    for (const job of this.#held.splice(0)) await queue.enqueue(job);
  }
}

const current = new AsyncLocalStorage<RequestDeadline>();

/** Whether the current request has already been answered 504 (false outside a request). */
export const requestTimedOut = (): boolean => current.getStore()?.expired ?? false;

const timedOut = () =>
  new HTTPException(504, {
    cause: httpFailures.requestTimeout(),
  });

/**
 * Answers `504 request_timeout` when a request runs longer than `ms` — but only while it has committed
 * nothing: its later commits then roll back and the mail it queued is dropped, so a 504 leaves nothing
 * behind. A request whose commit has begun is waited for, so a success is never answered 504.
 */
export const requestDeadline =
  (ms: number, deliveries: DeliveryQueue): MiddlewareHandler<AppEnv> =>
  async (_c, next) => {
    const deadline = new RequestDeadline();
    const work = current.run(deadline, () => next());
    let timer: NodeJS.Timeout | undefined;
    const timer$ = new Promise<"timeout">((resolve) => {
      timer = setTimeout(() => resolve("timeout"), ms);
    });
    try {
      const first = await Promise.race([work.then(() => "done" as const), timer$]);
      if (first === "timeout" && deadline.expire()) {
        // The handler runs on; anything it still tries to commit is refused and rolled back.
        work.catch(() => {});
        throw timedOut();
      }
      await work;
      await deadline.release(deliveries);
    } finally {
      clearTimeout(timer);
    }
  };

/**
 * The use cases' ports, bound to the request deadline: each transaction asks it before committing,
 * as does the send counter (an autocommit write), and mail queued by a request waits for its outcome.
 * Outside a request (startup, tests without the middleware) they behave as given.
 */
export function withRequestDeadlines(auth: AuthDeps): AuthDeps {
  const { store } = auth;
  const guardedStore: AuthDeps["store"] = Object.create(store, {
    transaction: {
      value: <T>(fn: (repos: Parameters<Parameters<typeof store.transaction>[0]>[0]) => Promise<T>) =>
        store.transaction(async (repos) => {
          const value = await fn(repos);
          current.getStore()?.beginCommit();
          return value;
        }),
    },
    // The refresh and password grants commit in one statement of their own (migrations/0008 and 0009).
    sessions: {
      value: Object.create(store.sessions, {
        grantRefresh: {
          value: (...args: Parameters<typeof store.sessions.grantRefresh>) => {
            current.getStore()?.beginCommit();
            return store.sessions.grantRefresh(...args);
          },
        },
        grantPassword: {
          value: (...args: Parameters<typeof store.sessions.grantPassword>) => {
            current.getStore()?.beginCommit();
            return store.sessions.grantPassword(...args);
          },
        },
      }),
    },
    quota: {
      value: {
        take: (...args: Parameters<typeof store.quota.take>) => {
          current.getStore()?.beginCommit();
          return store.quota.take(...args);
        },
      },
    },
  });
  const heldDeliveries: DeliveryQueue = {
    enqueue(job) {
      const deadline = current.getStore();
      if (deadline?.hold(job)) return;
      return auth.deliveries.enqueue(job);
    },
  };
  // A view, not a copy: ports replaced on `auth` later (tests swap providers, mailers) still count.
  return new Proxy(auth, {
    get: (target, key, receiver) =>
      key === "store"
        ? guardedStore
        : key === "deliveries"
          ? heldDeliveries
          : Reflect.get(target, key, receiver),
  });
}
