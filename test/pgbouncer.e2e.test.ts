import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type FreshNamespace, freshNamespace, testDatabase } from "@authsvc/adapters/testing";
import { productionServerEnv } from "@authsvc/http/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  PGBOUNCER_MISSING,
  type PgBouncer,
  pgbouncerInstalled,
  startPgBouncer,
} from "./support/pgbouncer.js";
import { type ServerProcess, startServer } from "./support/server-process.js";

/**
 * Two server processes behind one PgBouncer in transaction mode (a transaction of a client may run on
 * any server connection), as production runs many instances: both migrate the same fresh schema
 * through it at once. What the instances must share is checked through PgBouncer as well as directly
 * by the tests that check it (refresh-tokens, request-limits and messages e2e tests, over
 * `support/database-routes.ts`).
 */
const runnable = pgbouncerInstalled() && !testDatabase().embedded;
if (!pgbouncerInstalled()) console.warn(PGBOUNCER_MISSING);
else if (testDatabase().embedded) {
  console.warn("PgBouncer tests NOT RUN: the test database is the embedded one (set TEST_DATABASE_URL)");
}

const cwd = mkdtempSync(join(tmpdir(), "authsvc-pgbouncer-e2e-"));
let bouncer: PgBouncer;
let ns: FreshNamespace;
let a: ServerProcess;
let b: ServerProcess;

describe.skipIf(!runnable)("two instances behind PgBouncer in transaction mode", () => {
  beforeAll(async () => {
    // Not migrated here: the two servers migrate it, through PgBouncer, at the same time.
    ns = await freshNamespace();
    bouncer = await startPgBouncer(testDatabase().url, { poolSize: 8 });
    const env = {
      ...productionServerEnv(ns),
      DATABASE_URL: bouncer.url,
      // PgBouncer in transaction mode keeps no named statement from one transaction to the next.
      AUTHSVC_DB_PREPARED_STATEMENTS: "false",
    };
    [a, b] = await Promise.all([startServer(env, { cwd }), startServer(env, { cwd })]);
  }, 60_000);

  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await bouncer?.stop();
    await ns?.drop();
    rmSync(cwd, { recursive: true, force: true });
  });

  it("both migrated the schema once, through PgBouncer, and answer", async () => {
    const [row] = await ns.sql`
      select count(*)::int as applied from ${ns.sql(ns.namespace)}.schema_migrations
    `;
    expect(row?.applied).toBeGreaterThan(0);
    for (const server of [a, b]) expect((await fetch(`${server.url}/health`)).status).toBe(200);
  });
});
