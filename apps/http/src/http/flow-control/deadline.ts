import type { DeliveryQueue } from "@authsvc/core/kernel";

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
