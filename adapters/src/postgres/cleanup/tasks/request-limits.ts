import { type CleanupTask, secondsAgo } from "../task.js";
import { removeBatch } from "./remove-batch.js";

/**
 * Request-limit counters whose window ended (`expire`, epoch milliseconds). A request counted after
 * the removal starts a new window, as it would on the expired row.
 */
export const requestLimits: CleanupTask = {
  name: "request_limits",
  run: ({ sql, namespace, limit }) =>
    removeBatch(sql, {
      namespace,
      table: "request_limits",
      key: ["key"],
      stale: sql`expire < (extract(epoch from now()) * 1000)::bigint`,
      limit,
    }),
};

/** The send caps' hourly windows (`RATE_LIMIT_EMAIL_SENT`, `RATE_LIMIT_SMS_SENT`) that ended. */
export const sendCapWindows: CleanupTask = {
  name: "send_quota",
  run: ({ sql, namespace, limit }) =>
    removeBatch(sql, {
      namespace,
      table: "send_quota",
      key: ["key", "window_start"],
      stale: sql`window_start < ${secondsAgo(sql, 60 * 60)}`,
      limit,
    }),
};

/** The lockout's counts (`sign_in_failures`) forgotten and no longer locking (`expires_at` passed). */
export const signInFailures: CleanupTask = {
  name: "sign_in_failures",
  run: ({ sql, namespace, limit }) =>
    removeBatch(sql, {
      namespace,
      table: "sign_in_failures",
      key: ["key"],
      stale: sql`expires_at < now()`,
      limit,
    }),
};
