import { type CleanupTask, secondsAgo } from "../task.js";
import { removeBatch } from "./remove-batch.js";

/**
 * One-time tokens (links and codes) past the longest of their lifetimes (`MAILER_OTP_EXP`,
 * `SMS_OTP_EXP`). `/verify` answers an expired token and a missing one alike (`otp_expired`), so
 * removing it changes no answer.
 */
export const oneTimeTokens = (lifetimeMs: number): CleanupTask => ({
  name: "one_time_tokens",
  run: ({ sql, namespace, limit }) =>
    removeBatch(sql, {
      namespace,
      table: "one_time_tokens",
      key: ["id"],
      stale: sql`created_at < ${secondsAgo(sql, lifetimeMs / 1000)}`,
      limit,
    }),
});
