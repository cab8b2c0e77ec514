import { type CleanupTask, DAY_SECONDS, secondsAgo } from "../task.js";
import { removeBatch } from "./remove-batch.js";

/**
 * Flow states (PKCE) untouched for a day, or for the longest one-time-token lifetime when that is
 * longer: a mailed link's flow state must outlive the link. A state with a code counts from when the
 * code was issued, one without from its creation (a code is never issued before its state exists, so
 * both stamps must be past the cutoff).
 */
export const flowStates = (oneTimeTokenLifetimeMs: number): CleanupTask => ({
  name: "flow_states",
  run: ({ sql, namespace, limit }) => {
    const cutoff = secondsAgo(sql, Math.max(DAY_SECONDS, oneTimeTokenLifetimeMs / 1000));
    return removeBatch(sql, {
      namespace,
      table: "flow_state",
      key: ["id"],
      stale: sql`created_at < ${cutoff} and (auth_code_issued_at is null or auth_code_issued_at < ${cutoff})`,
      limit,
    });
  },
});
