import type { AuthDeps, DeliveryQueue } from "@authsvc/core";
import type { Context, MiddlewareHandler } from "hono";
import { HTTPException } from "hono/http-exception";
import type { AppEnv } from "../app-env.js";
import { clientAddress } from "../client-address.js";
import { httpFailures } from "../http-failures.js";
import { asideOf } from "./admission.js";
import { asidePorts } from "./aside-ports.js";
import { storeBinder } from "./store-binding.js";

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
export class RequestDeadline {
  #expired = false;
  #committed = false;
  #released = false;
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

  /**
   * Keeps `job` until the outcome is known; a request already answered 504 drops it. Once the
   * deliveries have been handed over (`release`), a job queued later (by a delivery) goes straight on.
   */
  hold(job: Job, queue: DeliveryQueue): void | Promise<void> {
    if (this.#released) return queue.enqueue(job);
    if (!this.#expired) this.#held.push(job);
  }

  /** Whether the request has been answered and its deliveries handed over: what runs now is theirs. */
  get released(): boolean {
    return this.#released;
  }

  async release(queue: DeliveryQueue): Promise<void> {
    this.#released = true;
    for (const job of this.#held.splice(0)) await queue.enqueue(job);
  }
}

/** Whether the request of `c` has already been answered 504 (false outside the flow-control middleware). */
export const requestTimedOut = (c: Context<AppEnv>): boolean => c.get("deadline")?.expired ?? false;

const timedOut = () =>
  new HTTPException(504, {
    cause: httpFailures.requestTimeout(),
  });

/**
 * Answers `504 request_timeout` when a request runs longer than `ms` — but only while it has committed
 * nothing: its later commits then roll back and the mail it queued is dropped, so a 504 leaves nothing
 * behind. A request whose commit has begun is waited for, so a success is never answered 504. Where
 * the commits are is the store's to declare (`storeTraits`); while the request waits outside the
 * process (`depsTraits`), its admission slot goes to another.
 *
 * The request's handlers reach `auth` bound to its deadline as `c.get("deps")`. Passed along rather than
 * found through AsyncLocalStorage: that turns on a promise hook for every promise of the process, which
 * cost about a fifth of the CPU of a GET /user.
 */
export const requestDeadline = (ms: number, auth: AuthDeps): MiddlewareHandler<AppEnv> => {
  const bindStore = storeBinder(auth.store);
  const aside = asidePorts(auth);
  return async (c, next) => {
    const deadline = new RequestDeadline();
    c.set("deadline", deadline);
    // A view, not a copy: ports replaced on `auth` later (tests swap providers, mailers) still count.
    const deps: { -readonly [K in keyof AuthDeps]: AuthDeps[K] } = Object.create(auth);
    deps.store = bindStore(deadline, () => clientAddress(c));
    deps.deliveries = { enqueue: (job: Job) => deadline.hold(job, auth.deliveries) };
    const slot = asideOf(c);
    if (slot) aside.apply(deps, slot);
    c.set("deps", deps);
    // Once answered the request holds no slot: what runs on (its deliveries, a handler past a 504)
    // uses the plain ports.
    const unadmit = () => {
      if (slot) aside.restore(deps);
    };
    const work = next();
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
      unadmit();
      await deadline.release(auth.deliveries);
    } finally {
      unadmit();
      clearTimeout(timer);
    }
  };
};
