import { deliveryQueue, type RunningDeliveryQueue } from "@authsvc/adapters";
import type { Logger } from "pino";

/**
 * Deliveries running at once per instance. Enough that a burst of sign-ups is mailed in parallel
 * (each delivery holds one SMTP session, and one pooled connection only while it compensates a
 * failure), few enough that a slow mail server cannot take the whole database pool.
 */
export const DELIVERY_CONCURRENCY = 16;

/** How long a graceful stop waits for the mail already accepted to be delivered. */
export const DELIVERY_DRAIN_MS = 10_000;

/**
 * The queue that delivers mail after the answer, logging (and counting) what could not be sent. A
 * sign-up whose confirmation failed is removed again: its line says so and why, by user id (the
 * address is not logged).
 */
export function deliveriesOf(logger: Logger): RunningDeliveryQueue {
  const queue = deliveryQueue({
    concurrency: DELIVERY_CONCURRENCY,
    onFailure: (failure) => {
      const fields = { error_code: failure.code, error: failure.message, failed_deliveries: queue.failed };
      const removed = failure.removedUserIds ?? [];
      if (removed.length === 0) {
        logger.warn(fields, "message not delivered: its code was withdrawn, the user may ask again");
        return;
      }
      logger.warn(
        { ...fields, removed_user_ids: removed },
        "message not delivered: the unconfirmed user it was sent to was removed because its confirmation could not be delivered; the address may sign up again",
      );
    },
    onFault: (fault) =>
      logger.error({ err: fault, failed_deliveries: queue.failed }, "message delivery failed"),
  });
  return queue;
}
