import type { DpopProofLedger } from "@authsvc/core/dpop";
import type { Queryable } from "./rows.js";

/**
 * `DpopProofLedger` over the `dpop_proofs` table of `namespace`: one statement, so two instances
 * presented one proof at once both insert and exactly one wins. A row past its expiry the cleanup has
 * not removed yet is taken over (its proof could not be accepted any more anyway).
 */
export function postgresDpopLedger(sql: Queryable, options: { namespace: string }): DpopProofLedger {
  const table = sql`${sql(options.namespace)}.dpop_proofs`;
  return {
    async spend(key, expiresAt) {
      const rows = await sql`
        insert into ${table} (key, expires_at)
        values (${key}, ${expiresAt})
        on conflict (key) do update
        set expires_at = excluded.expires_at
        where dpop_proofs.expires_at < now()
        returning key
      `;
      return rows.length === 1;
    },
  };
}
