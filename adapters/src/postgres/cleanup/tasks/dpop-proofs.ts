import type { CleanupTask } from "../task.js";
import { removeBatch } from "./remove-batch.js";

/** DPoP proofs past the time their `iat` could be accepted (RFC 9449 §11.1): their replay is refused by age. */
export const dpopProofs: CleanupTask = {
  name: "dpop_proofs",
  run: ({ sql, namespace, limit }) =>
    removeBatch(sql, {
      namespace,
      table: "dpop_proofs",
      key: ["key"],
      stale: sql`expires_at < now()`,
      limit,
    }),
};
