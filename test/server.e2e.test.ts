import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { connectPostgres, resolveMigrationsDir } from "@authsvc/adapters";
import { type FreshNamespace, freshNamespace, testDatabase } from "@authsvc/adapters/testing";
import { productionServerEnv } from "@authsvc/http/testing";
import { jwtVerify } from "jose";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { embeddedDatabaseUrl } from "./support/embedded-database.js";
import { parseLines, runServer, type ServerProcess, startServer } from "./support/server-process.js";

const migrationCount = readdirSync(resolveMigrationsDir()).filter((f) => f.endsWith(".sql")).length;
const functionCount = readdirSync(join(resolveMigrationsDir(), "functions")).filter((f) =>
  f.endsWith(".sql"),
).length;

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
  const dir = mkdtempSync(join(tmpdir(), "authsvc-e2e-"));
  dirs.push(dir);
  return dir;
}

/** A production-style configuration on the run's database, in a namespace of its own. */
async function productionEnv(
  extra: Record<string, string> = {},
): Promise<{ env: Record<string, string>; ns: FreshNamespace }> {
  const ns = await freshNamespace();
  namespaces.push(ns);
  return { ns, env: productionServerEnv(ns, extra) };
}

async function start(env: Record<string, string>, cwd = tempDir(), logFile?: string): Promise<ServerProcess> {
  const server = await startServer(env, logFile ? { cwd, logFile } : { cwd });
  running.push(server);
  return server;
}

async function post(url: string, body: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function stop(server: ServerProcess) {
  running.splice(running.indexOf(server), 1);
  return server.stop("SIGTERM");
}

describe("the server on a real database", () => {
  it("migrates, answers /health and /settings, and stops cleanly on SIGTERM", async () => {
    const { env, ns } = await productionEnv({
      AUTHSVC_EXTERNAL_PHONE_ENABLED: "true",
      AUTHSVC_DISABLE_SIGNUP: "true",
    });
    const server = await start(env);

    const health = await fetch(`${server.url}/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ name: "authsvc", version: expect.any(String) });

    const settings = await fetch(`${server.url}/settings`);
    const body = (await settings.json()) as { external: Record<string, boolean>; disable_signup: boolean };
    expect(body.external.phone).toBe(true);
    expect(body.external.github).toBe(false);
    expect(body.disable_signup).toBe(true);
    const requestId = settings.headers.get("x-request-id");

    const tables = await ns.sql<{ table_name: string }[]>`
      select table_name from information_schema.tables where table_schema = ${ns.namespace} order by 1`;
    expect(tables.map((t) => t.table_name)).toEqual(
      expect.arrayContaining([
        "users",
        "identities",
        "sessions",
        "refresh_tokens",
        "one_time_tokens",
        "flow_state",
        "audit_log_entries",
        "schema_migrations",
      ]),
    );

    const exit = await stop(server);
    expect(exit).toMatchObject({ code: 0, signal: null });
    expect(exit.ms).toBeLessThan(10_000);
    const messages = server.lines().map((l) => l.msg);
    const shuttingDown = messages.indexOf("shutting down: no new connections, finishing requests in flight");
    expect(shuttingDown).toBeGreaterThan(-1);
    expect(messages.indexOf("stopped")).toBeGreaterThan(shuttingDown);
    // After exit every line has been read: the request's line carries the id it answered with.
    expect(server.lines().some((l) => l.msg === "request completed" && l.request_id === requestId)).toBe(
      true,
    );
  });

  it("two instances starting at once on a fresh database both serve, and migrate exactly once", async () => {
    const { env, ns } = await productionEnv();
    const servers = await Promise.all([start(env), start(env)]);
    for (const server of servers) expect((await fetch(`${server.url}/health`)).status).toBe(200);
    const rows = await ns.sql`select version from ${ns.sql(ns.namespace)}.schema_migrations`;
    expect(rows).toHaveLength(migrationCount);
    const applied = servers.map((s) => s.lines().find((l) => l.msg === "migrations up to date")?.applied);
    expect(applied.map((list) => (list as string[]).length).sort()).toEqual([0, migrationCount]);
    const functions = servers.map((s) => s.lines().find((l) => l.msg === "migrations up to date")?.functions);
    expect(functions.map((list) => (list as string[]).length).sort()).toEqual([0, functionCount]);
    await Promise.all(servers.map(stop));
  });

  it("`migrate` applies the migrations and exits; a second run is a no-op", async () => {
    const { env, ns } = await productionEnv();
    const first = await runServer(env, { args: ["migrate"], cwd: tempDir() });
    expect(first.code).toBe(0);
    expect(parseLines(first.stdout).find((l) => l.msg === "migrations up to date")?.applied).toHaveLength(
      migrationCount,
    );
    expect(parseLines(first.stdout).find((l) => l.msg === "migrations up to date")?.functions).toHaveLength(
      functionCount,
    );
    const second = await runServer(env, { args: ["migrate"], cwd: tempDir() });
    expect(second.code).toBe(0);
    expect(parseLines(second.stdout).find((l) => l.msg === "migrations up to date")).toMatchObject({
      applied: [],
      functions: [],
    });
    const [count] = await ns.sql`select count(*)::int as n from ${ns.sql(ns.namespace)}.schema_migrations`;
    expect(count?.n).toBe(migrationCount);
  });

  it("writes its log lines to LOG_FILE when set", async () => {
    const logFile = join(tempDir(), "logs", "authsvc.log");
    const { env } = await productionEnv({ AUTHSVC_LOG_FILE: logFile });
    const server = await start(env, tempDir(), logFile);
    const res = await fetch(`${server.url}/nope`);
    expect(res.status).toBe(404);
    expect((await stop(server)).code).toBe(0);
    const lines = parseLines(readFileSync(logFile, "utf8"));
    expect(lines.map((l) => l.msg)).toContain("stopped");
    expect(lines.find((l) => l.msg === "request completed")).toMatchObject({
      status: 404,
      error_code: "not_found",
      request_id: res.headers.get("x-request-id"),
    });
  });
});

describe("configuration errors stop the start", () => {
  it("AUTHSVC_JWT_EXP=soon exits non-zero naming the variable, with every other problem", async () => {
    const { env } = await productionEnv({ AUTHSVC_JWT_EXP: "soon", AUTHSVC_LOG_LEVEL: "loud" });
    const result = await runServer(env, { cwd: tempDir() });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('AUTHSVC_JWT_EXP: expected a whole number of seconds, got "soon"');
    expect(result.stderr).toContain("AUTHSVC_LOG_LEVEL");
  });

  it("captcha turned on without its secret exits non-zero naming the secret", async () => {
    const { env } = await productionEnv({ AUTHSVC_SECURITY_CAPTCHA_ENABLED: "true" });
    const result = await runServer(env, { cwd: tempDir() });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      "AUTHSVC_SECURITY_CAPTCHA_SECRET: required when AUTHSVC_SECURITY_CAPTCHA_ENABLED is true",
    );
  });

  it("with DATABASE_URL set, the required variables are required", async () => {
    const result = await runServer({ DATABASE_URL: testDatabase().url, PORT: "0" }, { cwd: tempDir() });
    expect(result.code).toBe(1);
    for (const name of ["AUTHSVC_SITE_URL", "AUTHSVC_API_EXTERNAL_URL", "AUTHSVC_JWT_SECRET"]) {
      expect(result.stderr).toContain(`${name}: required`);
    }
  });

  it("an unreachable database fails the start without printing its password", async () => {
    const { env } = await productionEnv({
      DATABASE_URL: "postgres://app:pw-do-not-print@127.0.0.1:1/nodb",
      // Waited for at start (30 s by default): test/database-startup.e2e.test.ts covers the waiting.
      AUTHSVC_DB_STARTUP_TIMEOUT: "0",
    });
    const result = await runServer(env, { cwd: tempDir() });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("failed to start");
    expect(result.stderr + result.stdout).not.toContain("pw-do-not-print");
  });
});

describe("the embedded mode (no DATABASE_URL)", () => {
  it("starts with development defaults, prints working keys, and keeps its data across a restart", async () => {
    const cwd = tempDir();
    // Debug level: the line with the embedded database's password of each start.
    const env = { PORT: "0", AUTHSVC_MAILER_AUTOCONFIRM: "true", AUTHSVC_LOG_LEVEL: "debug" };
    const first = await start(env, cwd);
    const lines = first.lines();
    expect(String(lines[0]?.msg)).toContain("DEVELOPMENT MODE");
    // A fresh data folder starts from the template `npm run build` made, already migrated.
    const started = lines.find((l) => l.msg === "embedded database started");
    expect(started?.created).toBe("template");
    // The template holds the functions too: nothing left to apply.
    expect(lines.find((l) => l.msg === "migrations up to date")).toMatchObject({
      applied: [],
      functions: [],
    });
    const account = { email: "signed-up@example.com", password: "embedded-pw-1" };
    const signup = await post(`${first.url}/signup`, account);
    expect(signup.status).toBe(200);
    expect(signup.body.access_token).toEqual(expect.any(String));

    const secret = readFileSync(join(cwd, ".authsvc", "jwt-secret"), "utf8").trim();
    const keys = lines.find((l) => typeof l.anon_key === "string") as {
      anon_key: string;
      service_role_key: string;
    };
    const key = new TextEncoder().encode(secret);
    expect((await jwtVerify(keys.anon_key, key)).payload.role).toBe("anon");
    expect((await jwtVerify(keys.service_role_key, key)).payload.role).toBe("service_role");

    expect((await fetch(`${first.url}/health`)).status).toBe(200);
    expect((await fetch(`${first.url}/settings`)).status).toBe(200);

    // Until sign-up exists, persistence is checked through the server's own database.
    const dbUrl = embeddedDatabaseUrl(lines);
    const writer = connectPostgres({ url: dbUrl, maxPoolSize: 1, embedded: true });
    await writer`insert into auth.users (id, aud, role, email) values
      ('6f1c2f5e-0000-4000-8000-000000000001', 'authenticated', 'authenticated', 'kept@example.com')`;
    await writer.end();
    const exit = await stop(first);
    expect(exit).toMatchObject({ code: 0 });
    expect(exit.ms).toBeLessThan(10_000);

    const second = await start(env, cwd);
    expect(second.lines().find((l) => l.msg === "embedded database started")?.created).toBe("existing");
    expect((await post(`${second.url}/token?grant_type=password`, account)).status).toBe(200);
    expect(readFileSync(join(cwd, ".authsvc", "jwt-secret"), "utf8").trim()).toBe(secret);
    const secondUrl = embeddedDatabaseUrl(second.lines());
    expect(new URL(secondUrl).password).not.toBe(new URL(dbUrl).password);
    const reader = connectPostgres({ url: secondUrl, maxPoolSize: 1, embedded: true });
    const rows = await reader`select email from auth.users order by email`;
    await reader.end();
    expect(rows.map((r) => r.email)).toEqual(["kept@example.com", account.email]);
    expect(second.lines().find((l) => l.msg === "migrations up to date")?.applied).toEqual([]);
    expect((await stop(second)).code).toBe(0);
  }, 60_000);
});
