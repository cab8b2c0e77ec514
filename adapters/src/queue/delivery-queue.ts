import type { DeliveryFailure, DeliveryQueue } from "@authsvc/core/kernel";
import PQueue from "p-queue";

export interface DeliveryQueueOptions {
  /** Deliveries running at once; more wait their turn (each holds a mail or gateway connection). */
  readonly concurrency: number;
  /** A delivery that failed and was compensated (its token removed): logged and counted. */
  readonly onFailure: (failure: DeliveryFailure) => void;
  /** A delivery that threw (a fault, e.g. the database was gone during the compensation). */
  readonly onFault: (fault: unknown) => void;
}

/** The in-process `DeliveryQueue`, with what the server needs to report on it and stop cleanly. */
export interface RunningDeliveryQueue extends DeliveryQueue {
  /** Deliveries queued or running. */
  readonly pending: number;
  /** Failed deliveries since start. */
  readonly failed: number;
  /**
   * Stops accepting work and waits until every accepted delivery has finished, at most `timeoutMs`;
   * resolves the number still unfinished then (0 when drained).
   */
  drain(timeoutMs: number): Promise<number>;
}

/**
 * Runs deliveries in this process after the answer, at most `concurrency` at once (p-queue). Each
 * instance delivers what its own requests queued; the shared state (tokens, caps) is in Postgres.
 */
export function deliveryQueue(options: DeliveryQueueOptions): RunningDeliveryQueue {
  if (!Number.isInteger(options.concurrency) || options.concurrency < 1) {
    throw new Error(`deliveryQueue: concurrency must be a positive integer, got ${options.concurrency}`);
  }
  const queue = new PQueue({ concurrency: options.concurrency });
  let failed = 0;
  let closed = false;
  return {
    get pending() {
      return queue.size + queue.pending;
    },
    get failed() {
      return failed;
    },
    enqueue(job) {
      if (closed) {
        options.onFault(new Error("delivery queue closed: a message was not sent"));
        return;
      }
      void queue.add(async () => {
        try {
          const failure = await job();
          if (failure) {
            failed++;
            options.onFailure(failure);
          }
        } catch (fault) {
          failed++;
          options.onFault(fault);
        }
      });
    },
    async drain(timeoutMs) {
      closed = true;
      let timer: NodeJS.Timeout | undefined;
      const timedOut = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, timeoutMs);
      });
      await Promise.race([queue.onIdle(), timedOut]);
      clearTimeout(timer);
      return queue.size + queue.pending;
    },
  };
}
