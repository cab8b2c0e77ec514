import { type CleanupTask, DAY_SECONDS, secondsAgo } from "../task.js";
import { removeBatch } from "./remove-batch.js";

/**
 * MFA factors enrolled more than a day ago and never verified, with their challenges and attempt
 * counters (cascade). No session names an unverified factor (a session's factor is the one that
 * raised it to aal2), so their removal touches no session.
 */
export const unverifiedFactors: CleanupTask = {
  name: "unverified_factors",
  run: ({ sql, namespace, limit }) =>
    removeBatch(sql, {
      namespace,
      table: "mfa_factors",
      key: ["id"],
      stale: sql`status = 'unverified' and created_at < ${secondsAgo(sql, DAY_SECONDS)}`,
      limit,
    }),
};
