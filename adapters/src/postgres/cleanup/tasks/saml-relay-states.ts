import { type CleanupTask, secondsAgo } from "../task.js";
import { removeBatch } from "./remove-batch.js";

/**
 * SAML relay states a day old, as the reference: SP-initiated sign-ins never answered (an answered
 * one is removed by the assertion consumer). Nothing references them.
 */
export const samlRelayStates: CleanupTask = {
  name: "saml_relay_states",
  run: ({ sql, namespace, limit }) =>
    removeBatch(sql, {
      namespace,
      table: "saml_relay_states",
      key: ["id"],
      stale: sql`created_at < ${secondsAgo(sql, 24 * 60 * 60)}`,
      limit,
    }),
};
