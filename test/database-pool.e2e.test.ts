import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { roleKey, TEST_JWT_SECRET } from "@authsvc/http/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DisposableDatabase, disposableDatabase } from "./support/database-outage.js";
import { type ServerProcess, startServer } from "./support/server-process.js";

/**
 * Issue: one instance opened up to 100 connections and never closed an idle one, so a second
 * instance could not start on a default PostgreSQL. The pool is bounded and gives idle connections back.
 */
const MAX = 4;

let db: DisposableDatabase;
let server: ServerProcess;
const dir = mkdtempSync(join(tmpdir(), "authsvc-pool-"));

beforeAll(async () => {
  db = await disposableDatabase();
  server = await startServer(
    {
      DATABASE_URL: db.url,
      AUTHSVC_DB_PREPARED_STATEMENTS: db.embedded ? "false" : "true",
      AUTHSVC_DB_MAX_POOL_SIZE: String(MAX),
      AUTHSVC_DB_CONN_MAX_IDLE_TIME: "1s",
      AUTHSVC_SITE_URL: "http://localhost:3000",
      AUTHSVC_API_EXTERNAL_URL: "http://localhost:9999",
      AUTHSVC_JWT_SECRET: TEST_JWT_SECRET,
      AUTHSVC_API_HOST: "127.0.0.1",
      PORT: "0",
    },
    { cwd: dir },
  );
});

afterAll(async () => {
  await server?.stop("SIGKILL");
  await db?.drop();
  rmSync(dir, { recursive: true, force: true });
});

describe("the database pool", () => {
  it("stays within its size under a burst and closes idle connections after the idle time", async () => {
    const admin = await roleKey("service_role");
    const headers = { apikey: admin, authorization: `Bearer ${admin}` };
    let peak = 0;
    const sample = async () => {
      peak = Math.max(peak, await db.serverConnections());
    };
    const burst = Array.from({ length: 40 }, () =>
      fetch(`${server.url}/admin/users`, { headers }).then(async (res) => {
        await sample();
        return res.status;
      }),
    );
    expect(new Set(await Promise.all(burst))).toEqual(new Set([200]));
    const afterBurst = await db.serverConnections();
    expect(afterBurst).toBeGreaterThan(0);
    expect(peak).toBeLessThanOrEqual(MAX);

    const idleSince = performance.now();
    let open = afterBurst;
    while (open > 0 && performance.now() - idleSince < 10_000) {
      await new Promise((r) => setTimeout(r, 100));
      open = await db.serverConnections();
    }
    const closedAfterMs = performance.now() - idleSince;
    console.log(
      `[pool] peak ${peak} of ${MAX}; ${afterBurst} open after the burst, ${open} after ${closedAfterMs.toFixed(0)} ms idle`,
    );
    expect(open).toBe(0);

    // And it opens them again when needed.
    expect((await fetch(`${server.url}/admin/users`, { headers })).status).toBe(200);
  });
});
