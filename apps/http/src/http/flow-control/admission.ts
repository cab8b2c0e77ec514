import { incomingOf } from "../incoming.js";

/**
 * Admission: at most `max` requests are in the application at once; the others wait in arrival
 * order, parsed but not started. A request in the application holds its context, logger, ports and
 * database query until answered; under a flood of connections (1,000 clients on GET /user) nearly all
 * of them only wait for a pooled connection, and objects that wait that long outlive the young
 * generation and pile up in the old one: the process grew to 157–170 MB where, with 64 admitted at
 * once, it stayed at 141–146 MB, at the same throughput and p99 (docs/benchmarks.md).
 *
 * A request waiting on something that is not this process's to speed up — a password hash on the
 * worker pool, a hook, its turn at a message endpoint — steps aside (`aside`): its slot goes to the
 * next request meanwhile, and it comes back at once, past the limit if need be. So a storm of
 * sign-ins waiting for the hash pool, or a slow hook, does not make token checks wait behind them.
 */
export interface Admission {
  /** Runs `work` for `request` once it has a slot; `max` 0 admits everything at once. */
  run<T>(request: object, work: () => T | Promise<T>): Promise<T>;
}

/** Runs `wait` with the request's slot given up meanwhile. */
export type Aside = <T>(wait: () => Promise<T>) => Promise<T>;

/**
 * Stamped on each admitted Node request: how to step aside, and how long it waited (when it did). A
 * symbol property rather than a WeakMap entry: one WeakMap entry per request made every garbage
 * collection walk them all.
 */
const ADMITTED = Symbol("authsvc.admitted");
interface Admitted {
  readonly aside: Aside;
  readonly waitedMs?: number;
}
type Stamped = { [ADMITTED]?: Admitted };

export function admission(max: number): Admission {
  if (max <= 0) return { run: async (_request, work) => work() };
  let active = 0;
  const queue: (() => void)[] = [];
  // Resolves once a slot is held: at once when one is free, else in turn.
  const acquire = (): Promise<void> | undefined => {
    if (active < max) {
      active++;
      return undefined;
    }
    return new Promise<void>((resolve) => queue.push(resolve));
  };
  const release = () => {
    // Above the limit (requests back from stepping aside): the slot is given up, not passed on.
    const next = active > max ? undefined : queue.shift();
    if (next) {
      next(); // the slot passes on as it is
    } else active--;
  };
  const aside: Aside = async (wait) => {
    release();
    try {
      return await wait();
    } finally {
      // Back at once, even past the limit: the request may hold a pooled connection (a hook runs in
      // the transaction that issues the token), and waiting here for a slot whose holders wait for
      // that connection would stall them all.
      active++;
    }
  };
  const unqueued: Admitted = { aside };
  return {
    async run(request, work) {
      const turn = acquire();
      if (turn) {
        const arrived = performance.now();
        await turn;
        (request as Stamped)[ADMITTED] = { aside, waitedMs: performance.now() - arrived };
      } else (request as Stamped)[ADMITTED] = unqueued;
      try {
        return await work();
      } finally {
        release();
      }
    },
  };
}

/** Milliseconds the request waited to be admitted; undefined when it did not wait. */
export const admissionWaitMs = (request: object | undefined): number | undefined =>
  (request as Stamped | undefined)?.[ADMITTED]?.waitedMs;

/**
 * Runs `wait` with the request's slot given up meanwhile (see `Admission`); just runs it for a
 * request that holds none (no limit, or outside a server: tests calling `app.request`).
 */
export function stepAside(request: object | undefined): Aside | undefined {
  return (request as Stamped | undefined)?.[ADMITTED]?.aside;
}

/** How the request of `c` steps aside (see `stepAside`); undefined when it holds no slot. */
export const asideOf = (c: { env: unknown }): Aside | undefined => stepAside(incomingOf(c));

/** Runs `wait` for the request of `c` with its slot given up meanwhile, when it holds one. */
export function waitAside<T>(c: { env: unknown }, wait: () => Promise<T>): Promise<T> {
  const aside = asideOf(c);
  return aside ? aside(wait) : wait();
}
