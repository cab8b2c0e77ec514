import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type FreshNamespace, migratedNamespace, testDatabase } from "@authsvc/adapters/testing";
import { productionServerEnv } from "@authsvc/http/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ServerProcess, startServer } from "./support/server-process.js";
import { type SilenceableProxy, silenceableProxy } from "./support/tcp-proxy.js";

/**
 * A database host that stops answering without refusing (a partition, a frozen server) must not turn
 * every request into a wait for the request deadline: a new connection is given up after
 * DB_CONNECT_TIMEOUT (postgres.js waits 30 s by default, longer than the 10 s deadline: each request
 * was answered 504 after 10 s), the request is answered 503, and service resumes when the host does.
 */
const CONNECT_TIMEOUT_MS = 1_000;
let ns: FreshNamespace;
let proxy: SilenceableProxy;
let server: ServerProcess;
const cwd = mkdtempSync(join(tmpdir(), "authsvc-hang-"));
const email = `hang-${Date.now()}@example.com`;
const password = "correct horse battery";

beforeAll(async () => {
  ns = await migratedNamespace();
  proxy = await silenceableProxy(testDatabase().url);
  server = await startServer(
    productionServerEnv(ns, {
      DATABASE_URL: proxy.url,
      AUTHSVC_DB_CONNECT_TIMEOUT: `${CONNECT_TIMEOUT_MS}ms`,
      AUTHSVC_MAILER_AUTOCONFIRM: "true",
    }),
    { cwd },
  );
}, 60_000);

afterAll(async () => {
  await server?.stop("SIGKILL");
  await proxy?.close();
  await ns?.drop();
  rmSync(cwd, { recursive: true, force: true });
});

async function signIn() {
  const started = performance.now();
  const res = await fetch(`${server.url}/token?grant_type=password`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password }),
    signal: AbortSignal.timeout(15_000),
  });
  const body = (await res.json()) as { error_code?: string };
  return { status: res.status, code: body.error_code, ms: performance.now() - started };
}

describe("a database host that goes silent", () => {
  it("answers 503 after the connect timeout, not 504 at the deadline, and recovers", async () => {
    const signup = await fetch(`${server.url}/signup`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email, password }),
    });
    expect(signup.status).toBe(200);
    expect((await signIn()).status).toBe(200);

    proxy.silence();
    // silence() also cuts the pool's open connections; a request sent before the server has seen
    // those closes can fail on one at once (a fast 503, also fine). Give it a moment, so that every
    // request below needs a new connection: the path this test is about.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const during = await Promise.all([signIn(), signIn(), signIn()]);
    console.info(`[silent database] ${JSON.stringify(during.map((d) => [d.status, Math.round(d.ms)]))}`);
    for (const d of during) {
      expect(d).toMatchObject({ status: 503, code: "unexpected_failure" });
      expect(d.ms).toBeGreaterThanOrEqual(CONNECT_TIMEOUT_MS * 0.9);
      expect(d.ms).toBeLessThan(CONNECT_TIMEOUT_MS + 2_500);
    }

    proxy.restore();
    const back = performance.now();
    let after = await signIn();
    while (after.status !== 200 && performance.now() - back < 5_000) after = await signIn();
    expect(after.status).toBe(200);
    expect(performance.now() - back).toBeLessThan(2_000 + CONNECT_TIMEOUT_MS);
    expect(server.stderr()).not.toMatch(/TypeError|uncaught/i);
  }, 60_000);
});
