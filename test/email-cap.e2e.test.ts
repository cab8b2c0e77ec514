import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type FreshNamespace, migratedNamespace, startSmtpSink } from "@authsvc/adapters/testing";
import { productionServerEnv, roleKey } from "@authsvc/http/testing";
import { GoTrueAdminApi, GoTrueClient } from "@supabase/auth-js";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeEachDatabaseRoute, type OpenRoute } from "./support/database-routes.js";
import { type ServerProcess, startServer } from "./support/server-process.js";

/**
 * `RATE_LIMIT_EMAIL_SENT` is one count for every instance on a database: two server processes share
 * it, whichever way they reach the database. The mail flows themselves are messages.e2e.test.ts's.
 */
let sink: Awaited<ReturnType<typeof startSmtpSink>>;
let serviceKey: string;
const cwd = mkdtempSync(join(tmpdir(), "authsvc-email-cap-"));

beforeAll(async () => {
  sink = await startSmtpSink();
  serviceKey = await roleKey("service_role");
});

afterAll(async () => {
  await sink?.close();
  rmSync(cwd, { recursive: true, force: true });
});

const client = (server: ServerProcess) =>
  new GoTrueClient({ url: server.url, autoRefreshToken: false, persistSession: false });
const admin = (server: ServerProcess) =>
  new GoTrueAdminApi({ url: server.url, headers: { Authorization: `Bearer ${serviceKey}` } });
let counter = 0;
const address = (tag: string) => `${tag}-${Date.now()}-${++counter}@example.com`;

describeEachDatabaseRoute("the hourly email cap of two instances", (route) => {
  let capNs: FreshNamespace;
  let opened: OpenRoute | undefined;
  let capA: ServerProcess;
  let capB: ServerProcess;
  beforeAll(async () => {
    [capNs, opened] = await Promise.all([migratedNamespace(), route.open()]);
    const env = {
      ...productionServerEnv(capNs, {
        AUTHSVC_SMTP_HOST: sink.host,
        AUTHSVC_SMTP_PORT: String(sink.port),
        AUTHSVC_SMTP_ADMIN_EMAIL: "auth@example.com",
        AUTHSVC_RATE_LIMIT_EMAIL_SENT: "3",
      }),
      ...opened.env,
    };
    [capA, capB] = await Promise.all([startServer(env, { cwd }), startServer(env, { cwd })]);
  }, 60_000);
  afterAll(async () => {
    await Promise.all([capA?.stop(), capB?.stop()]);
    await opened?.close();
    await capNs?.drop();
  });

  it("is shared: the fourth recovery mail between them is refused", async () => {
    const emails = [];
    for (let i = 0; i < 4; i++) {
      const email = address("cap");
      await admin(capA).createUser({ email, password: "secret-pw", email_confirm: true });
      emails.push(email);
    }
    const results = [];
    for (const [i, email] of emails.entries()) {
      results.push((await client(i % 2 === 0 ? capA : capB).resetPasswordForEmail(email)).error);
    }
    expect(results.slice(0, 3)).toEqual([null, null, null]);
    expect(results[3]).toMatchObject({ status: 429, code: "over_email_send_rate_limit" });
    for (const email of emails.slice(0, 3)) await sink.next(email);
  });
});
