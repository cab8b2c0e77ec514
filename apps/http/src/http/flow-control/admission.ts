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
  /**
   * Runs `work` for `request` once it has a slot; `max` 0 admits everything at once. A request the
   * queue refuses (full, or its wait past the limit) runs `refused` instead, at once.
   */
  run<T>(request: object, work: () => T | Promise<T>, refused?: () => T | Promise<T>): Promise<T>;
}

/**
 * Bounds on the waiting line (`API_MAX_QUEUED_REQUESTS`, `API_MAX_QUEUE_WAIT`): past them a request
 * is refused at once rather than left waiting without bound, so a flood that the instance cannot
 * serve is told so (503 with `Retry-After`) instead of holding sockets and memory until clients give up.
 */
export interface QueueLimits {
  /** Most requests waiting at once; one more is refused at once. 0: no bound. */
  readonly maxQueued?: number;
  /** Longest a request waits for a slot before it is refused. 0: no bound. */
  readonly maxWaitMs?: number;
}

/** Thrown by `run` for a refused request when no `refused` answer was given. */
export class AdmissionRefusedError extends Error {
  constructor() {
    super("admission refused: the waiting line is full or the wait too long");
  }
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

/** A request waiting for a slot: `settle(true)` admits it, `settle(false)` refuses it; settled once. */
interface Waiter {
  settled: boolean;
  settle: (admitted: boolean) => void;
}

export function admission(max: number, limits: QueueLimits = {}): Admission {
  if (max <= 0) return { run: async (_request, work) => work() };
  const maxQueued = limits.maxQueued ?? 0;
  const maxWaitMs = limits.maxWaitMs ?? 0;
  let active = 0;
  // Waiters in arrival order; one refused for its wait stays in place, settled, until it comes up.
  let queue: Waiter[] = [];
  let waiting = 0;
  const release = () => {
    // Above the limit (requests back from stepping aside): the slot is given up, not passed on.
    let next = active > max ? undefined : queue.shift();
    while (next?.settled) next = queue.shift();
    if (next) {
      next.settled = true;
      waiting--;
      next.settle(true); // the slot passes on as it is
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
  // Resolves to whether the request got a slot, in turn, within the wait limit.
  const enqueue = (): Promise<boolean> => {
    const waiter: Waiter = { settled: false, settle: () => {} };
    const turn = new Promise<boolean>((resolve) => {
      waiter.settle = resolve;
    });
    queue.push(waiter);
    waiting++;
    if (maxWaitMs > 0) {
      const timer = setTimeout(() => {
        if (waiter.settled) return;
        waiter.settled = true;
        waiting--;
        waiter.settle(false);
        // Refused waiters stay in the line until they come up; while no slot frees, they are dropped here.
        if (queue.length > 2 * waiting + 64) queue = queue.filter((w) => !w.settled);
      }, maxWaitMs);
      void turn.then(() => clearTimeout(timer));
    }
    return turn;
  };
  const refuse = <T>(refused: (() => T | Promise<T>) | undefined): Promise<T> =>
    refused ? Promise.resolve(refused()) : Promise.reject(new AdmissionRefusedError());
  const unqueued: Admitted = { aside };
  return {
    async run(request, work, refused) {
      if (active < max) {
        active++;
        (request as Stamped)[ADMITTED] = unqueued;
      } else {
        if (maxQueued > 0 && waiting >= maxQueued) return refuse(refused);
        const arrived = performance.now();
        if (!(await enqueue())) return refuse(refused);
        (request as Stamped)[ADMITTED] = { aside, waitedMs: performance.now() - arrived };
      }
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
