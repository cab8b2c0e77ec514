import { type CleanupTask, DAY_SECONDS, secondsAgo } from "../task.js";
import { removeBatch } from "./remove-batch.js";

/** MFA challenges older than a day, or than `MFA_CHALLENGE_EXPIRY_DURATION` when that is longer. */
export const mfaChallenges = (challengeLifetimeMs: number): CleanupTask => ({
  name: "mfa_challenges",
  run: ({ sql, namespace, limit }) =>
    removeBatch(sql, {
      namespace,
      table: "mfa_challenges",
      key: ["id"],
      stale: sql`created_at < ${secondsAgo(sql, Math.max(DAY_SECONDS, challengeLifetimeMs / 1000))}`,
      limit,
    }),
});
