import { type CleanupTask, secondsAgo } from "../task.js";
import { removeBatch } from "./remove-batch.js";

/**
 * Refresh tokens revoked longer ago than `retentionMs` (`CLEANUP_REVOKED_TOKEN_RETENTION`, a day by
 * default: until then, presenting one is recognised as reuse and revokes its family; after, it is
 * answered as unknown). A family's live token is never revoked, so it never qualifies; it keeps its
 * removed parent's id (`parent_id` has no foreign key since migration 0022), so the removal touches
 * no other row and waits for nobody.
 *
 * No `order by`: taking the oldest first walks, on every turn, the index entries of all the rows the
 * turns before removed (until a vacuum); the planner's own choice took half the time per turn.
 */
export const refreshTokens = (retentionMs: number): CleanupTask => ({
  name: "refresh_tokens",
  run: ({ sql, namespace, limit }) =>
    removeBatch(sql, {
      namespace,
      table: "refresh_tokens",
      key: ["id"],
      stale: sql`revoked and updated_at < ${secondsAgo(sql, retentionMs / 1000)}`,
      limit,
    }),
});
