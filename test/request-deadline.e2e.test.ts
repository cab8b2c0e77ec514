import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type FreshNamespace, migratedNamespace, startSmtpSink } from "@authsvc/adapters/testing";
import { productionServerEnv, roleKey } from "@authsvc/http/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ServerProcess, startServer } from "./support/server-process.js";
import { until } from "./support/until.js";

/**
 * A request answered `504 request_timeout` leaves nothing behind, and a request whose change has
 * committed is never answered 504. The limit is 1 s; the mail server holds each message 1.5 s.
 */
let ns: FreshNamespace;
let sink: Awaited<ReturnType<typeof startSmtpSink>>;
let server: ServerProcess;
let serviceKey: string;
const cwd = mkdtempSync(join(tmpdir(), "authsvc-deadline-"));
const run = Date.now();

beforeAll(async () => {
  ns = await migratedNamespace();
  sink = await startSmtpSink({ delayMs: 1_500 });
  serviceKey = await roleKey("service_role");
  server = await startServer(
    productionServerEnv(ns, {
      AUTHSVC_SMTP_HOST: sink.host,
      AUTHSVC_SMTP_PORT: String(sink.port),
      AUTHSVC_SMTP_ADMIN_EMAIL: "auth@example.com",
      // Few connections: the test database is shared with every other test file of the run.
      AUTHSVC_DB_MAX_POOL_SIZE: "5",
      AUTHSVC_API_MAX_REQUEST_DURATION: "1s",
    }),
    { cwd },
  );
}, 60_000);

afterAll(async () => {
  await server?.stop();
  await sink?.close();
  await ns?.drop();
  rmSync(cwd, { recursive: true, force: true });
});

const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${server.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });

describe("the request time limit", () => {
  it("a sign-up whose write is held past the limit is answered 504 and leaves no user, token or mail", async () => {
    const email = `late-${run}@example.com`;
    let release = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    // Another session holds a lock that lets reads through but makes the sign-up's insert wait.
    let locked = () => {};
    const isLocked = new Promise<void>((resolve) => {
      locked = resolve;
    });
    const holder = ns.sql.begin(async (tx) => {
      await tx`lock table ${tx(ns.namespace)}.users in share row exclusive mode`;
      locked();
      await released;
    });
    await isLocked;
    const res = await post("/signup", { email, password: "secret-pw" });
    expect(res.status).toBe(504);
    expect(await res.json()).toMatchObject({ error_code: "request_timeout" });
    release();
    await holder;
    // The handler ran on once the lock was gone; its commit was refused and rolled back.
    await until(() => server.lines().some((l) => String(l.msg).includes("rolled back")));
    const rows = await ns.sql`select id from ${ns.sql(ns.namespace)}.users where email = ${email}`;
    expect(rows).toHaveLength(0);
    const tokens = await ns.sql`
      select 1 from ${ns.sql(ns.namespace)}.one_time_tokens where relates_to = ${email}`;
    expect(tokens).toHaveLength(0);
    expect(sink.mails.filter((m) => m.to.includes(email))).toHaveLength(0);
    // And the address is free: signing up again works.
    expect((await post("/signup", { email, password: "secret-pw" })).status).toBe(200);
  }, 20_000);

  it("an invitation committed before the limit is answered with its outcome, not 504", async () => {
    const email = `slow-invite-${run}@example.com`;
    const started = Date.now();
    const res = await post("/invite", { email }, { authorization: `Bearer ${serviceKey}` });
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_500);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ email });
    expect(sink.mails.filter((m) => m.to.includes(email))).toHaveLength(1);
    const rows = await ns.sql`select id from ${ns.sql(ns.namespace)}.users where email = ${email}`;
    expect(rows).toHaveLength(1);
  }, 20_000);

  it("a graceful stop delivers the mail already accepted before the process exits", async () => {
    const own = await startServer(
      productionServerEnv(ns, {
        AUTHSVC_SMTP_HOST: sink.host,
        AUTHSVC_SMTP_PORT: String(sink.port),
        AUTHSVC_SMTP_ADMIN_EMAIL: "auth@example.com",
        // Few connections: the test database is shared with every other test file of the run.
        AUTHSVC_DB_MAX_POOL_SIZE: "5",
      }),
      { cwd },
    );
    const email = `drained-${run}@example.com`;
    const res = await fetch(`${own.url}/magiclink`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email }),
    });
    expect(res.status).toBe(200);
    // Answered before the mail server took the message (it holds each one 1.5 s).
    expect(sink.mails.filter((m) => m.to.includes(email))).toHaveLength(0);
    const exit = await own.stop("SIGTERM");
    expect(exit.code).toBe(0);
    expect(sink.mails.filter((m) => m.to.includes(email))).toHaveLength(1);
  }, 30_000);
});
