import type { Sql } from "@authsvc/adapters";
import type { ReadinessCheck } from "../server/readiness-check.js";

/** The database answers a trivial statement (on any pooled connection, so a full pool waits its turn). */
export const databaseReadiness = (sql: Sql): ReadinessCheck => ({
  name: "database",
  async check() {
    await sql`select 1`;
  },
});
