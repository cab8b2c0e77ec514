import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { roleKey, TEST_JWT_SECRET } from "@authsvc/http/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DisposableDatabase, disposableDatabase } from "./support/database-outage.js";
import { type ServerProcess, startServer } from "./support/server-process.js";

/**
 * Issue: killing the server's backends under load took the whole process down (postgres.js wrote to
 * a socket it had already dropped), and then requests arriving while the database refused
 * connections waited for the whole outage. Now a database outage is a run of fast 503s, and the same
 * process serves again as soon as the database answers.
 */
const CLIENTS = 20;
const OUTAGE_MS = 5_000;
/**
 * How much longer than the slowest answer before the outage an answer during it may take. Each
 * statement of a request waits at most for the pool's next connection attempt (the reconnect delay is
 * capped at 0.5 s) and that attempt's refusal (a few ms); a sign-up caught at the outage's start
 * measured up to 1.3 s more than its usual time on an idle machine. What a request did before reaching
 * the database (argon2 hashing for 20 clients on 2 cores) takes what it took before the outage, which
 * a loaded machine stretches, so the bound is counted from that. Waiting for the database instead
 * takes the whole 5 s outage.
 */
const FAIL_FAST_MS = 2_000;
/** A request that gets no answer within this long counts as a hang (status 0). */
const HANG_MS = 5_000;

interface Outcome {
  path: string;
  started: number;
  ended: number;
  status: number; // 0: no answer (timeout or connection error)
  code?: string;
}

let db: DisposableDatabase;
let server: ServerProcess;
let apikey: string;
const dir = mkdtempSync(join(tmpdir(), "authsvc-faults-"));

beforeAll(async () => {
  db = await disposableDatabase();
  server = await startServer(
    {
      DATABASE_URL: db.url,
      AUTHSVC_DB_PREPARED_STATEMENTS: db.embedded ? "false" : "true",
      AUTHSVC_DB_MAX_POOL_SIZE: "10",
      AUTHSVC_SITE_URL: "http://localhost:3000",
      AUTHSVC_API_EXTERNAL_URL: "http://localhost:9999",
      AUTHSVC_JWT_SECRET: TEST_JWT_SECRET,
      AUTHSVC_API_HOST: "127.0.0.1",
      AUTHSVC_MAILER_AUTOCONFIRM: "true",
      PORT: "0",
    },
    { cwd: dir },
  );
  apikey = await roleKey("anon");
});

afterAll(async () => {
  await server?.stop("SIGKILL");
  await db?.drop();
  rmSync(dir, { recursive: true, force: true });
});

async function call(path: string, body: unknown, log: Outcome[]): Promise<Record<string, unknown> | null> {
  const started = performance.now();
  try {
    const res = await fetch(`${server.url}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", apikey },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(HANG_MS),
    });
    const json = (await res.json()) as Record<string, unknown>;
    log.push({
      path,
      started,
      ended: performance.now(),
      status: res.status,
      code: String(json.error_code ?? ""),
    });
    return res.ok ? json : null;
  } catch {
    log.push({ path, started, ended: performance.now(), status: 0 });
    return null;
  }
}

/** One client: sign-up → sign-in → refresh, over and over, with a new address each round. */
async function client(id: number, log: Outcome[], running: () => boolean): Promise<void> {
  for (let round = 0; running(); round++) {
    const email = `c${id}-r${round}-${Date.now()}@example.com`;
    const password = "correct horse battery";
    if (!(await call("/signup", { email, password }, log))) continue;
    const session = await call("/token?grant_type=password", { email, password }, log);
    if (!session) continue;
    await call("/token?grant_type=refresh_token", { refresh_token: session.refresh_token }, log);
  }
}

describe("a database outage under load", () => {
  it("answers 503s within 2 s of its usual time, keeps the process alive, and serves again within 2 s", async () => {
    const log: Outcome[] = [];
    let running = true;
    const clients = Array.from({ length: CLIENTS }, (_, id) => client(id, log, () => running));
    const successAfter = async (since: number) => {
      while (!log.some((o) => o.started >= since && o.status === 200))
        await new Promise((r) => setTimeout(r, 10));
    };

    await successAfter(performance.now()); // the load is flowing
    await new Promise((r) => setTimeout(r, 300));
    const down = performance.now();
    const killed = await db.takeDown();
    // Long enough for an unbounded reconnect backoff to grow past the 2 s recovery budget.
    await new Promise((r) => setTimeout(r, OUTAGE_MS));
    await db.bringBack();
    const back = performance.now();
    await Promise.race([successAfter(back), new Promise((r) => setTimeout(r, 5_000))]);
    const firstSuccess = log.filter((o) => o.started >= back && o.status === 200).map((o) => o.ended);
    running = false;
    await Promise.all(clients);

    const during = log.filter((o) => o.ended > down && o.started < back);
    const statuses = (list: Outcome[]) => {
      const counts: Record<number, number> = {};
      for (const o of list) counts[o.status] = (counts[o.status] ?? 0) + 1;
      return counts;
    };
    const recoveryMs = Math.min(...firstSuccess) - back;
    const slowest = during.reduce((a, b) => (b.ended - b.started > a.ended - a.started ? b : a));
    const before = log.filter((o) => o.ended <= down);
    const slowestBefore = Math.max(...before.map((o) => o.ended - o.started));
    console.log(
      `[database outage] killed ${killed} connections; during: ${JSON.stringify(statuses(during))}; ` +
        `slowest answer during it ${(slowest.ended - slowest.started).toFixed(0)} ms ` +
        `(${slowest.status} ${slowest.path}, sent ${(slowest.started - down).toFixed(0)} ms after the ` +
        `outage began; before the outage ${slowestBefore.toFixed(0)} ms); ` +
        `overall: ${JSON.stringify(statuses(log))}; first success ${recoveryMs.toFixed(0)} ms after the database answered`,
    );

    expect(killed).toBeGreaterThan(0);
    // Only successes and 503s, never a 500 or a hang, and the outage was really seen.
    expect(Object.keys(statuses(log)).sort()).toEqual(["200", "503"]);
    expect(during.filter((o) => o.status === 503).length).toBeGreaterThan(0);
    for (const o of log.filter((o) => o.status === 503)) expect(o.code).toBe("unexpected_failure");
    // Fast: none of them waited for the database to come back. (A machine so slow that the bound
    // reaches the outage's length could not tell waiting from working: that fails too.)
    const bound = slowestBefore + FAIL_FAST_MS;
    expect(bound).toBeLessThan(OUTAGE_MS);
    expect(Math.max(...during.map((o) => o.ended - o.started))).toBeLessThan(bound);
    expect(recoveryMs).toBeLessThan(2_000);

    // The same process, still alive and serving.
    const health = await fetch(`${server.url}/health`);
    expect(health.status).toBe(200);
    expect(server.stderr()).not.toMatch(/TypeError|uncaught/i);
  });
});
