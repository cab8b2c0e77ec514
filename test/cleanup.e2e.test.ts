import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { connectPostgres } from "@authsvc/adapters";
import { ago, cleanupRows, DAY_MS, type FreshNamespace, migratedNamespace } from "@authsvc/adapters/testing";
import { productionServerEnv } from "@authsvc/http/testing";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { embeddedDatabaseUrl } from "./support/embedded-database.js";
import { freePort } from "./support/otlp-receiver.js";
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
      const res = await fetch(`${server.url}${path}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
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
