import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createConnection, createServer, type Server, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type FreshNamespace, migratedNamespace, testDatabase } from "@authsvc/adapters/testing";
import { productionServerEnv } from "@authsvc/http/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "./support/free-port.js";
import { parseLines, runServer, startServer } from "./support/server-process.js";

/**
 * A database that is not there yet when the server starts (a container still starting, a DNS name
 * not yet registered) is waited for, within AUTHSVC_DB_STARTUP_TIMEOUT, each failed try logged; one
 * that never comes fails the start with a message naming the variable, the URL without its password,
 * and the cause. A database or role that does not exist fails at once, in the same words.
 */
const cwd = mkdtempSync(join(tmpdir(), "authsvc-db-startup-"));
const PASSWORD = "pw-do-not-print";
let ns: FreshNamespace;

beforeAll(async () => {
  ns = await migratedNamespace();
}, 60_000);

afterAll(async () => {
  await ns?.drop();
  rmSync(cwd, { recursive: true, force: true });
});

/** Forwards `port` on loopback to the test database: the database "coming up" there. */
async function forward(port: number, target: URL): Promise<Server> {
  const open = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = createConnection({ host: target.hostname, port: Number(target.port || 5432) });
    for (const socket of [client, upstream]) {
      open.add(socket);
      socket.on("close", () => open.delete(socket));
      socket.on("error", () => socket.destroy());
    }
    client.on("close", () => upstream.destroy());
    upstream.on("close", () => client.destroy());
    client.pipe(upstream).pipe(client);
  });
  server.on("close", () => {
    for (const socket of open) socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return server;
}

/** `url` with the host, port, database or user replaced. */
function urlWith(change: { host?: string; port?: number; database?: string; user?: string }): string {
  const url = new URL(testDatabase().url);
  if (change.host !== undefined) url.hostname = change.host;
  if (change.port !== undefined) url.port = String(change.port);
  if (change.database !== undefined) url.pathname = `/${change.database}`;
  if (change.user !== undefined) url.username = change.user;
  url.password = PASSWORD;
  return url.toString();
}

const masked = (url: string) => url.replace(`:${PASSWORD}@`, ":***@");

async function failedStart(databaseUrl: string, timeout: string) {
  const started = performance.now();
  const run = await runServer(
    productionServerEnv(ns, { DATABASE_URL: databaseUrl, AUTHSVC_DB_STARTUP_TIMEOUT: timeout }),
    {
      cwd,
    },
  );
  return { ...run, ms: performance.now() - started, lines: parseLines(run.stdout) };
}

const retries = (lines: Record<string, unknown>[]) =>
  lines.filter((line) => line.level === "warn" && typeof line.attempt === "number");

describe("a database that refuses connections at start", () => {
  it("is tried again with growing delays until AUTHSVC_DB_STARTUP_TIMEOUT, then fails naming it", async () => {
    const url = urlWith({ host: "127.0.0.1", port: await freePort() });
    const run = await failedStart(url, "2s");
    expect(run.code).toBe(1);
    expect(run.ms).toBeGreaterThanOrEqual(2_000);
    expect(run.ms).toBeLessThan(10_000);
    const tries = retries(run.lines);
    expect(tries.length).toBeGreaterThanOrEqual(3);
    expect(tries.map((line) => line.attempt)).toEqual(tries.map((_, i) => i + 1));
    const delays = tries.map((line) => Number(line.retry_in_ms));
    expect(delays[1]).toBeGreaterThan(delays[0] as number);
    // The logger blanks the password itself.
    expect(tries[0]).toMatchObject({
      database: expect.stringContaining(`@127.0.0.1:${new URL(url).port}/`),
      err: expect.stringContaining("ECONNREFUSED"),
    });
    expect(run.stderr).toMatch(
      new RegExp(
        `^authsvc: failed to start: cannot connect to the database of DATABASE_URL \\(${escapeRegExp(masked(url))}\\): .*ECONNREFUSED.*; gave up after \\d+ attempts in 2 s`,
      ),
    );
    expect(run.stderr + run.stdout).not.toContain(PASSWORD);
  });

  it("starts once the database answers within the timeout", async () => {
    const port = await freePort();
    const logFile = join(cwd, "comes-up-later.log");
    const env = productionServerEnv(ns, {
      DATABASE_URL: urlWith({ host: "127.0.0.1", port }),
      AUTHSVC_DB_STARTUP_TIMEOUT: "30s",
      AUTHSVC_LOG_FILE: logFile,
    });
    // The database comes up once the server has been refused at least once.
    let proxy: Server | undefined;
    const watch = setInterval(() => {
      const refused = existsSync(logFile) && readFileSync(logFile, "utf8").includes('"attempt":1');
      if (!refused || proxy) return;
      clearInterval(watch);
      void forward(port, new URL(testDatabase().url)).then((server) => {
        proxy = server;
      });
    }, 50);
    try {
      const server = await startServer(env, { cwd, logFile });
      try {
        expect((await fetch(`${server.url}/health/ready`)).status).toBe(200);
        expect(retries(server.lines()).length).toBeGreaterThanOrEqual(1);
        expect(server.lines()).toContainEqual(
          expect.objectContaining({ msg: "database accepts connections" }),
        );
      } finally {
        await server.stop();
      }
    } finally {
      clearInterval(watch);
      await new Promise((resolve) => proxy?.close(resolve) ?? resolve(undefined));
    }
  });

  it("a host name that does not resolve is tried again too, in the same words", async () => {
    const url = urlWith({ host: "no-such-host.invalid" });
    const run = await failedStart(url, "1s");
    expect(run.code).toBe(1);
    expect(retries(run.lines).length).toBeGreaterThanOrEqual(2);
    expect(run.stderr).toMatch(
      new RegExp(
        `^authsvc: failed to start: cannot connect to the database of DATABASE_URL \\(${escapeRegExp(masked(url))}\\): .*ENOTFOUND`,
      ),
    );
  });
});

describe("a database or role that does not exist", () => {
  it("fails the start at once, without waiting out the timeout, in the same words", async () => {
    if (testDatabase().embedded) return; // the embedded test database has one database and any role
    const url = urlWith({ database: "authsvc_startup_no_such_database" });
    const run = await failedStart(url, "60s");
    expect(run.code).toBe(1);
    expect(run.ms).toBeLessThan(15_000);
    expect(retries(run.lines)).toEqual([]);
    expect(run.stderr).toMatch(
      new RegExp(
        `^authsvc: failed to start: cannot connect to the database of DATABASE_URL \\(${escapeRegExp(masked(url))}\\): database "authsvc_startup_no_such_database" does not exist`,
      ),
    );

    const role = urlWith({ user: "authsvc_startup_no_such_role" });
    const refused = await failedStart(role, "60s");
    expect(refused.code).toBe(1);
    expect(refused.ms).toBeLessThan(15_000);
    expect(refused.stderr).toMatch(
      /^authsvc: failed to start: cannot connect to the database of DATABASE_URL \(.*\): .*authsvc_startup_no_such_role/,
    );
    expect(refused.stderr + refused.stdout).not.toContain(PASSWORD);
  });
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
