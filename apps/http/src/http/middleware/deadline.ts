import type { AuthDeps, DeliveryQueue } from "@authsvc/core";
import type { Context, MiddlewareHandler } from "hono";
import { HTTPException } from "hono/http-exception";
import pLimit from "p-limit";
import { type Aside, incomingOf, stepAside } from "../admission.js";
import type { AppEnv } from "../app-env.js";
import { clientAddress } from "../client-address.js";
import { httpFailures } from "../http-failures.js";

type Job = Parameters<DeliveryQueue["enqueue"]>[0];

/** Transactions run at once, per instance, by work done after its request was answered (deliveries). */
export const DELIVERY_TRANSACTIONS = 2;

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

/** Whether the request of `c` has already been answered 504 (false outside the deadline middleware). */
export const requestTimedOut = (c: Context<AppEnv>): boolean => c.get("deadline")?.expired ?? false;

const timedOut = () =>
  new HTTPException(504, {
    cause: httpFailures.requestTimeout(),
  });

/**
 * Answers `504 request_timeout` when a request runs longer than `ms` — but only while it has committed
 * nothing: its later commits then roll back and the mail it queued is dropped, so a 504 leaves nothing
 * behind. A request whose commit has begun is waited for, so a success is never answered 504.
 *
 * The request's handlers reach `auth` bound to its deadline as `c.get("deps")`. Passed along rather than
 * found through AsyncLocalStorage: that turns on a promise hook for every promise of the process, which
 * cost about a fifth of the CPU of a GET /user.
 */
export const requestDeadline = (ms: number, auth: AuthDeps): MiddlewareHandler<AppEnv> => {
  const bind = deadlineBinder(auth);
  const waitsAside = asideBinder(auth);
  return async (c, next) => {
    const deadline = new RequestDeadline();
    c.set("deadline", deadline);
    const deps = bind(deadline, () => clientAddress(c));
    const aside = stepAside(incomingOf(c));
    c.set("deps", aside ? waitsAside(deps, aside) : deps);
    // Once answered the request holds no slot: what runs on (its deliveries, a handler past a 504)
    // uses the plain ports.
    const unadmit = () => {
      if (aside) plainPorts(deps, auth);
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

/**
 * The request's ports whose waits are not this process's work (the hash pool, hooks) give up its
 * admission slot while they wait (http/admission.ts). `view` is the request's own.
 */
function asideBinder(auth: AuthDeps): (view: AuthDeps, aside: Aside) => AuthDeps {
  type Mutable<T> = { -readonly [K in keyof T]: T[K] };
  // One admission per process: its ports are built once, not per request (again only when a test
  // has swapped the hasher or the hooks on `auth`).
  type Built = { aside: Aside; of: AuthDeps["hasher"]; ofHooks: AuthDeps["hooks"] };
  let built: (Built & { hasher: AuthDeps["hasher"]; hooks: AuthDeps["hooks"] }) | undefined;
  const build = (aside: Aside) => {
    const { hasher, hooks } = auth;
    const asideHasher: Mutable<AuthDeps["hasher"]> = Object.create(hasher);
    asideHasher.hash = (password) => aside(() => hasher.hash(password));
    asideHasher.verify = (hash, password) => aside(() => hasher.verify(hash, password));
    asideHasher.verifyDummy = (password) => aside(() => hasher.verifyDummy(password));
    const asideHooks: Mutable<AuthDeps["hooks"]> = Object.create(hooks);
    asideHooks.run = (...args) => aside(() => hooks.run(...args));
    return { aside, of: hasher, ofHooks: hooks, hasher: asideHasher, hooks: asideHooks };
  };
  return (view, aside) => {
    if (built?.aside !== aside || built.of !== auth.hasher || built.ofHooks !== auth.hooks) {
      built = build(aside);
    }
    const out = view as Mutable<AuthDeps>;
    out.hasher = built.hasher;
    out.hooks = built.hooks;
    return out;
  };
}

/** Puts the request's view back on `auth`'s own hasher and hooks (see `asideBinder`). */
function plainPorts(view: AuthDeps, auth: AuthDeps): void {
  const out = view as { -readonly [K in keyof AuthDeps]: AuthDeps[K] };
  out.hasher = auth.hasher;
  out.hooks = auth.hooks;
}

/**
 * Builds, for one request's deadline, the use cases' ports bound to it: each transaction asks it
 * before committing, as does the send counter (an autocommit write), and mail queued by the request
 * waits for its outcome; the audit entries its transactions write carry the client's address. What
 * does not depend on the request is built once.
 */
function deadlineBinder(
  auth: AuthDeps,
): (deadline: RequestDeadline, address: () => string | undefined) => AuthDeps {
  const { store } = auth;
  // The transactions of deliveries (after the answer, many at once in a burst) share a few
  // connections; the rest of the pool stays with the requests being answered.
  const afterAnswer = pLimit(DELIVERY_TRANSACTIONS);
  type Store = AuthDeps["store"];
  type Repos = Parameters<Parameters<Store["transaction"]>[0]>[0];
  type Mutable<T> = { -readonly [K in keyof T]: T[K] };
  // Per request only small objects: views that inherit everything and override what commits
  // (plain assignments; defining properties by descriptor is several times slower).
  // Use cases know nothing of addresses: the request's transactions stamp its entries.
  const addressed = (repos: Repos, address: () => string | undefined): Repos => {
    const audit: Mutable<Repos["audit"]> = Object.create(repos.audit);
    audit.record = (entry) =>
      repos.audit.record(entry.ipAddress === undefined ? { ...entry, ipAddress: address() } : entry);
    const view: Mutable<Repos> = Object.create(repos);
    view.audit = audit;
    return view;
  };
  return (deadline, address) => {
    // The refresh and password grants commit in one statement of their own (migrations 0009–0016).
    const sessions: Mutable<Store["sessions"]> = Object.create(store.sessions);
    // Their audit entries carry the client's address as the transactions' do (migration 0016).
    sessions.grantRefresh = (input) => {
      deadline.beginCommit();
      return store.sessions.grantRefresh({ ...input, ipAddress: input.ipAddress ?? address() });
    };
    sessions.grantPassword = (input) => {
      deadline.beginCommit();
      return store.sessions.grantPassword({ ...input, ipAddress: input.ipAddress ?? address() });
    };
    const guardedStore: Mutable<Store> = Object.create(store);
    guardedStore.transaction = <T>(fn: (repos: Repos) => Promise<T>) => {
      const run = () =>
        store.transaction(async (repos) => {
          const value = await fn(addressed(repos, address));
          deadline.beginCommit();
          return value;
        });
      return deadline.released ? afterAnswer(run) : run();
    };
    guardedStore.sessions = sessions;
    guardedStore.quota = {
      take: (...args: Parameters<Store["quota"]["take"]>) => {
        deadline.beginCommit();
        return store.quota.take(...args);
      },
    };
    // A view, not a copy: ports replaced on `auth` later (tests swap providers, mailers) still count.
    const view: Mutable<AuthDeps> = Object.create(auth);
    view.store = guardedStore;
    view.deliveries = {
      enqueue: (job: Job) => deadline.hold(job, auth.deliveries),
    };
    return view;
  };
}
