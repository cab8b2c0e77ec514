/**
 * Runs message deliveries after the request has been answered (mail handed over once its token has
 * committed), with bounded concurrency, so that an endpoint answers after the same work whether or not
 * the address it was given has an account: no mail-server latency in the answer's timing.
 */
/** A delivery that failed and was compensated: why, and what the compensation removed. */
export interface DeliveryFailure {
  readonly code: string;
  readonly message: string;
  /** Users created by the request whose message failed, removed with it (a failed sign-up). */
  readonly removedUserIds?: readonly string[];
}

export interface DeliveryQueue {
  /**
   * Accepts `job`, which runs later: the queue returns without waiting for it (a test double may
   * run it first, so callers await the call). The job resolves the failure it already compensated
   * (a refused send), or null; the queue records and counts such failures. A job that rejects is a
   * fault, logged as such.
   */
  enqueue(job: () => Promise<DeliveryFailure | null>): void | Promise<void>;
}
