import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { connectPostgres } from "@authsvc/adapters";
import {
  ago,
  cleanupRows,
  DAY_MS,
  type FreshNamespace,
  migratedNamespace,
  testDatabase,
} from "@authsvc/adapters/testing";
import { productionServerEnv } from "@authsvc/http/testing";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { embeddedDatabaseUrl } from "./support/embedded-database.js";
import { freePort } from "./support/free-port.js";
import { sample, scrape } from "./support/prometheus.js";
import { parseLines, runServer, type ServerProcess, startServer } from "./support/server-process.js";

const running: ServerProcess[] = [];
const namespaces: FreshNamespace[] = [];
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((server) => server.stop("SIGKILL")));
});
afterAll(async () => {
  await Promise.all(namespaces.map((ns) => ns.drop()));
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "authsvc-cleanup-"));
  dirs.push(dir);
  return dir;
}

async function migrated(): Promise<{ ns: FreshNamespace; rows: ReturnType<typeof cleanupRows> }> {
  const ns = await migratedNamespace();
  namespaces.push(ns);
  return { ns, rows: cleanupRows(ns.sql, ns.namespace) };
}

/** The rows the servers' passes logged as removed, together. */
const loggedTotal = (...servers: ServerProcess[]): number =>
  servers
    .flatMap((server) => server.lines())
    .filter((line) => line.msg === "cleanup pass")
    .reduce((n, line) => n + Number(line.total), 0);

/** `loggedTotal` once it reaches `expected` (or after 10 s): a pass logs once its last statement is done. */
async function loggedRemoved(servers: ServerProcess[], expected: number): Promise<number> {
  const deadline = Date.now() + 10_000;
  while (loggedTotal(...servers) < expected && Date.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 100));
  return loggedTotal(...servers);
}

/** A JSON POST to `server`. */
const postJson = (server: ServerProcess, path: string, body: unknown) =>
  fetch(`${server.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });

/** A user with one live session whose family has `revoked` tokens revoked two days ago. */
async function seedFamily(rows: ReturnType<typeof cleanupRows>, revoked: number) {
  const user = await rows.user();
  const session = await rows.session(user);
  return {
    session,
    ...(await rows.family(
      user,
      session,
      Array.from({ length: revoked }, () => ago(2 * DAY_MS)),
    )),
  };
}

describe("authsvc cleanup", () => {
  it("--help prints its usage", async () => {
    const result = await runServer({}, { args: ["cleanup", "--help"], cwd: tempDir() });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("usage: authsvc cleanup");
  });

  it("refuses an argument", async () => {
    const result = await runServer({}, { args: ["cleanup", "now"], cwd: tempDir() });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("unexpected argument now");
  });

  it("removes every stale row in one run, keeps the live ones, and says what it removed", async () => {
    const { ns, rows } = await migrated();
    const family = await seedFamily(rows, 250);
    const oldAudit = await rows.auditEntry(ago(100 * DAY_MS));
    const newAudit = await rows.auditEntry(ago(DAY_MS));
    const oldFlow = await rows.flowState(ago(3 * DAY_MS));
    const env = productionServerEnv(ns, {
      AUTHSVC_CLEANUP_BATCH_SIZE: "40",
      AUTHSVC_AUDIT_LOG_RETENTION: "720h",
    });

    const result = await runServer(env, { args: ["cleanup"], cwd: tempDir() });

    expect(result.code).toBe(0);
    const line = parseLines(result.stdout).find((entry) => entry.msg === "cleanup pass");
    expect(line).toMatchObject({
      removed: [
        { task: "refresh_tokens", rows: 250 },
        { task: "flow_states", rows: 1 },
        { task: "audit_log_entries", rows: 1 },
      ],
      total: 252,
      complete: true,
    });
    expect(await rows.present("refresh_tokens", family.ids)).toEqual([family.ids[250]]);
    expect(await rows.present("sessions", [family.session])).toEqual([family.session]);
    expect(await rows.present("audit_log_entries", [oldAudit, newAudit])).toEqual([newAudit]);
    expect(await rows.present("flow_state", [oldFlow])).toEqual([]);

    const again = await runServer(env, { args: ["cleanup"], cwd: tempDir() });
    expect(parseLines(again.stdout).find((entry) => entry.msg === "cleanup pass")).toMatchObject({
      total: 0,
    });
  });
});

describe("the server's continuous cleanup", () => {
  it("removes stale rows every interval, counts them in gotrue_cleanup_affected_rows, and logs each pass", async () => {
    const { ns, rows } = await migrated();
    // Written before the server starts: its passes must not meet a family half written.
    const family = await seedFamily(rows, 90);
    const port = await freePort();
    const server = await startServer(
      productionServerEnv(ns, {
        AUTHSVC_CLEANUP_INTERVAL: "1s",
        AUTHSVC_CLEANUP_BATCH_SIZE: "20",
        AUTHSVC_METRICS_ENABLED: "true",
        AUTHSVC_METRICS_EXPORTER: "prometheus",
        OTEL_EXPORTER_PROMETHEUS_HOST: "127.0.0.1",
        OTEL_EXPORTER_PROMETHEUS_PORT: String(port),
      }),
      { cwd: tempDir() },
    );
    running.push(server);

    const deadline = Date.now() + 15_000;
    while ((await rows.present("refresh_tokens", family.ids)).length > 1 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 200));

    expect(await rows.present("refresh_tokens", family.ids)).toEqual([family.ids[90]]);
    expect(await loggedRemoved([server], 90)).toBe(90);
    const metrics = await scrape(`http://127.0.0.1:${port}/`);
    expect(sample(metrics, "gotrue_cleanup_affected_rows_total")).toBe(90);
    const stopped = await server.stop("SIGTERM");
    running.splice(running.indexOf(server), 1);
    expect(stopped.code).toBe(0);
  });

  it("two instances on one database clean a backlog together, each row removed and counted once", async () => {
    const { ns, rows } = await migrated();
    const families = [];
    for (let i = 0; i < 4; i++) families.push(await seedFamily(rows, 120));
    const env = productionServerEnv(ns, { AUTHSVC_CLEANUP_INTERVAL: "1s", AUTHSVC_CLEANUP_BATCH_SIZE: "10" });
    const servers = await Promise.all([
      startServer(env, { cwd: tempDir() }),
      startServer(env, { cwd: tempDir() }),
    ]);
    running.push(...servers);
    const ids = families.flatMap((family) => family.ids);
    const live = families.map((family) => family.ids[120]);

    const deadline = Date.now() + 20_000;
    while ((await rows.present("refresh_tokens", ids)).length > live.length && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 200));

    expect(await rows.present("refresh_tokens", ids)).toEqual(live);
    expect(await loggedRemoved(servers, 4 * 120)).toBe(4 * 120);
    const failed = servers.flatMap((server) =>
      server.lines().filter((line) => line.msg === "cleanup statement failed"),
    );
    expect(failed).toEqual([]);
  });

  it("refreshes over HTTP while passes remove their families' old tokens all rotate", async () => {
    const { ns, rows } = await migrated();
    const server = await startServer(
      productionServerEnv(ns, {
        AUTHSVC_MAILER_AUTOCONFIRM: "true",
        AUTHSVC_CLEANUP_INTERVAL: "1s",
        AUTHSVC_CLEANUP_BATCH_SIZE: "5",
      }),
      { cwd: tempDir() },
    );
    running.push(server);
    const call = async (path: string, body: unknown) => {
      const res = await postJson(server, path, body);
      return { status: res.status, body: (await res.json()) as { refresh_token?: string } };
    };
    const email = `race-${Date.now()}@example.com`;
    const password = "correct horse battery";
    expect((await call("/signup", { email, password })).status).toBe(200);
    const tokens: string[] = [];
    for (let i = 0; i < 4; i++)
      tokens.push(String((await call("/token?grant_type=password", { email, password })).body.refresh_token));
    const rotate = async (i: number) => {
      const answer = await call("/token?grant_type=refresh_token", { refresh_token: tokens[i] });
      tokens[i] = String(answer.body.refresh_token);
      return answer.status;
    };
    for (let round = 0; round < 25; round++) await Promise.all(tokens.map((_, i) => rotate(i)));
    // The 100 tokens revoked so far become two days old: a backlog the passes work through.
    await ns.sql`update ${ns.sql(ns.namespace)}.refresh_tokens set updated_at = ${ago(2 * DAY_MS)} where revoked`;

    const statuses: number[] = [];
    for (let round = 0; round < 15; round++)
      statuses.push(...(await Promise.all(tokens.map((_, i) => rotate(i)))));

    expect(statuses).toEqual(Array(60).fill(200));
    expect(await loggedRemoved([server], 100)).toBe(100);
    // Left: each session's 15 tokens revoked since and its live one, and the sign-up's session's token.
    expect(await rows.count("refresh_tokens")).toBe(4 * 16 + 1);
  });

  it("follows a pass its time limit stopped after a tenth of an interval, not a whole one", async () => {
    const { ns } = await migrated();
    // One row a turn, a second a pass: a backlog of 20,000 takes many passes.
    await ns.sql`
      insert into ${ns.sql(ns.namespace)}.audit_log_entries (payload, created_at)
      select '{}'::jsonb, now() - interval '1 day' from generate_series(1, 20000)`;
    const server = await startServer(
      productionServerEnv(ns, {
        AUTHSVC_CLEANUP_INTERVAL: "1s",
        AUTHSVC_CLEANUP_BATCH_SIZE: "1",
        AUTHSVC_AUDIT_LOG_RETENTION: "1h",
      }),
      { cwd: tempDir() },
    );
    running.push(server);
    const passes = () => server.lines().filter((line) => line.msg === "cleanup pass");
    const deadline = Date.now() + 15_000;
    while (passes().length < 4 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));

    const spans = passes().map((line) => {
      const end = Date.parse(String(line.time));
      return { start: end - Number(line.duration_ms), end, complete: line.complete };
    });
    expect(spans.length).toBeGreaterThanOrEqual(4);
    expect(spans.every((span) => span.complete === false)).toBe(true);
    // Between one pass's end and the next's start: 100 ms and the time to begin (the log's stamps are
    // in whole milliseconds), where a whole interval is 1,000 ms.
    const gaps = spans.slice(1).map((span, i) => span.start - (spans[i]?.end ?? 0));
    for (const gap of gaps) {
      expect(gap).toBeGreaterThanOrEqual(95);
      expect(gap).toBeLessThan(500);
    }
  });

  // The embedded database runs one transaction at a time: the lock the test holds would stop it all.
  it.skipIf(testDatabase().embedded)(
    "passes go on while every connection of the requests' pool waits on a lock",
    async () => {
      const { ns, rows } = await migrated();
      // Revoked just now: not stale until the test ages them, once the pool is held up.
      const owner = await rows.user();
      const backlog = await rows.family(
        owner,
        await rows.session(owner),
        Array.from({ length: 100 }, () => new Date()),
      );
      const server = await startServer(
        productionServerEnv(ns, {
          AUTHSVC_MAILER_AUTOCONFIRM: "true",
          AUTHSVC_DB_MAX_POOL_SIZE: "1",
          AUTHSVC_API_MAX_REQUEST_DURATION: "30s",
          AUTHSVC_CLEANUP_INTERVAL: "1s",
          AUTHSVC_CLEANUP_BATCH_SIZE: "10",
        }),
        { cwd: tempDir() },
      );
      running.push(server);
      const post = (path: string, body: unknown) => postJson(server, path, body);
      const signup = await post("/signup", {
        email: `held-${Date.now()}@example.com`,
        password: "correct horse battery",
      });
      const { refresh_token, user } = (await signup.json()) as {
        refresh_token: string;
        user: { id: string };
      };

      const schema = ns.sql(ns.namespace);
      const held = await ns.sql.reserve();
      let refresh: Promise<Response> | undefined;
      let left: (string | number)[] = [];
      try {
        await held`begin`;
        await held`select id from ${schema}.sessions where user_id = ${user.id} for update`;
        // The refresh locks its session: it waits, holding the pool's one connection.
        refresh = post("/token?grant_type=refresh_token", { refresh_token });
        const [holder] = await held<{ pid: number }[]>`select pg_backend_pid() as pid`;
        // Other files' servers share this PostgreSQL: only the backends this lock blocks count.
        const waiting = async () =>
          Number(
            (
              await ns.sql`
                select count(*)::int as n from pg_stat_activity
                where ${holder?.pid ?? 0}::int = any(pg_blocking_pids(pid))`
            )[0]?.n,
          );
        for (let i = 0; i < 100 && (await waiting()) === 0; i++) await new Promise((r) => setTimeout(r, 50));
        expect(await waiting()).toBe(1);
        await ns.sql`update ${schema}.refresh_tokens set updated_at = ${ago(2 * DAY_MS)} where id in ${ns.sql(backlog.ids.slice(0, -1))}`;
        const deadline = Date.now() + 10_000;
        do {
          await new Promise((r) => setTimeout(r, 200));
          left = await rows.present("refresh_tokens", backlog.ids);
        } while (left.length > 1 && Date.now() < deadline);
      } finally {
        await held`rollback`;
        held.release();
      }

      expect(left).toEqual([backlog.ids[100]]);
      expect((await refresh)?.status).toBe(200);
    },
  );

  it("does nothing with AUTHSVC_CLEANUP_ENABLED=false", async () => {
    const { ns, rows } = await migrated();
    const family = await seedFamily(rows, 5);
    const server = await startServer(
      productionServerEnv(ns, { AUTHSVC_CLEANUP_ENABLED: "false", AUTHSVC_CLEANUP_INTERVAL: "1s" }),
      { cwd: tempDir() },
    );
    running.push(server);
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect(await rows.present("refresh_tokens", family.ids)).toHaveLength(6);
  });
});

describe("the cleanup in embedded mode", () => {
  it("runs its passes on the server's own embedded database", async () => {
    const server = await startServer(
      { PORT: "0", AUTHSVC_LOG_LEVEL: "debug", AUTHSVC_CLEANUP_INTERVAL: "1s" },
      { cwd: tempDir() },
    );
    running.push(server);
    const sql = connectPostgres({ url: embeddedDatabaseUrl(server.lines()), maxPoolSize: 1, embedded: true });
    try {
      const rows = cleanupRows(sql, "auth");
      const stale = [];
      for (let i = 0; i < 12; i++) stale.push(await rows.flowState(ago(3 * DAY_MS)));
      const fresh = await rows.flowState(ago(60_000));

      const deadline = Date.now() + 15_000;
      while ((await rows.present("flow_state", stale)).length > 0 && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 200));

      expect(await rows.present("flow_state", [...stale, fresh])).toEqual([fresh]);
      expect(await loggedRemoved([server], 12)).toBe(12);
    } finally {
      await sql.end({ timeout: 1 });
    }
  }, 60_000);

  it("authsvc cleanup runs a pass on the embedded database's data folder", async () => {
    const result = await runServer({ AUTHSVC_LOG_LEVEL: "info" }, { args: ["cleanup"], cwd: tempDir() });
    expect(result.code).toBe(0);
    expect(parseLines(result.stdout).find((line) => line.msg === "cleanup pass")).toMatchObject({
      total: 0,
      complete: true,
    });
  }, 60_000);
});
