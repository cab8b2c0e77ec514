import { type CleanupTask, secondsAgo } from "../task.js";
import { removeBatch } from "./remove-batch.js";

/** Audit entries older than `AUDIT_LOG_RETENTION` (only listed when one is set). */
export const auditEntries = (retentionMs: number): CleanupTask => ({
  name: "audit_log_entries",
  run: ({ sql, namespace, limit }) =>
    removeBatch(sql, {
      namespace,
      table: "audit_log_entries",
      key: ["id"],
      stale: sql`created_at < ${secondsAgo(sql, retentionMs / 1000)}`,
      limit,
    }),
});
