import { testDatabase } from "@authsvc/adapters/testing";
import { describe } from "vitest";
import { PGBOUNCER_MISSING, pgbouncerInstalled, startPgBouncer } from "./pgbouncer.js";

/** What a route adds to a server's environment, and how to take it down after the tests. */
export interface OpenRoute {
  /** Laid over `productionServerEnv(...)`. */
  readonly env: Readonly<Record<string, string>>;
  close(): Promise<void>;
}

/** How the server processes of a test reach its database. */
export interface DatabaseRoute {
  readonly name: string;
  /** Why the route cannot be taken on this machine; null when it can. */
  readonly missing: string | null;
  open(): Promise<OpenRoute>;
}

/** The servers connect to the database themselves. */
export const DIRECT_ROUTE: DatabaseRoute = {
  name: "direct",
  missing: null,
  open: async () => ({ env: {}, close: async () => {} }),
};

/**
 * Through Debian's PgBouncer in transaction mode, as production runs many instances: a client's
 * transactions may each run on another server connection, so nothing of a session carries over.
 */
const throughPgBouncer: DatabaseRoute = {
  name: "through PgBouncer",
  missing: pgbouncerInstalled() ? null : PGBOUNCER_MISSING,
  async open() {
    const bouncer = await startPgBouncer(testDatabase().url, { poolSize: 8 });
    return {
      // PgBouncer in transaction mode keeps no named statement from one transaction to the next.
      env: { DATABASE_URL: bouncer.url, AUTHSVC_DB_PREPARED_STATEMENTS: "false" },
      close: () => bouncer.stop(),
    };
  },
};

export const DATABASE_ROUTES: readonly DatabaseRoute[] = [DIRECT_ROUTE, throughPgBouncer];

/**
 * One describe block per database route, with the same body: what instances share (sessions, limits,
 * caps) must hold whether they reach the database directly or through PgBouncer. A route this
 * machine cannot take is skipped, and says so.
 */
export function describeEachDatabaseRoute(title: string, body: (route: DatabaseRoute) => void): void {
  for (const route of DATABASE_ROUTES) {
    if (route.missing !== null) console.warn(`${title}, ${route.name}: ${route.missing}`);
    describe.skipIf(route.missing !== null)(`${title}, ${route.name}`, () => body(route));
  }
}
