import type { Sql } from "postgres";
import { RateLimiterPostgres } from "./flexible-library.js";
import {
  type RequestLimiterStore,
  requestLimiter,
  type StoreErrorHandler,
  windowOptions,
} from "./flexible-limiter.js";

/** The table migration 0005 creates in the `DB_NAMESPACE` schema. */
export const REQUEST_LIMITS_TABLE = "request_limits";

/**
 * Request limits counted in Postgres, shared by every instance on the database: one row per route
 * family and client (`key`), its count (`points`) and the end of its window (`expire`, epoch ms),
 * each request one atomic upsert.
 */
export function postgresLimiterStore(
  sql: Sql,
  options: { namespace: string; onStoreError?: StoreErrorHandler },
): RequestLimiterStore {
  // rate-limiter-flexible speaks node-postgres's `query({text, values})`; its statements are its
  // own fixed SQL with the client key only ever a bound parameter, never spliced into the text.
  const client = {
    async query(query: { text: string; values?: unknown[] }) {
      try {
        // Prepared, so each request is one round trip rather than a describe and then the query; a
        // pool configured without prepared statements (embedded, PgBouncer) still wins.
        const rows = await sql.unsafe(query.text, (query.values ?? []) as never[], { prepare: true });
        return { rows };
      } catch (error) {
        options.onStoreError?.(error);
        throw error;
      }
    },
  };
  return {
    kind: "postgres",
    limiter: (window) =>
      requestLimiter(
        new RateLimiterPostgres({
          ...windowOptions(window),
          storeClient: client,
          storeType: "pool",
          schemaName: options.namespace,
          tableName: REQUEST_LIMITS_TABLE,
          // Created by the migrations; the library must not run DDL at start.
          tableCreated: true,
        }),
      ),
    ready: async () => {
      try {
        await sql`select 1`;
        return true;
      } catch {
        return false;
      }
    },
    // The pool belongs to the store; it is ended with it.
    close: async () => {},
  };
}
