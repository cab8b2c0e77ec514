import { createHash } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type FreshNamespace, freshNamespace, startSmtpSink, testDatabase } from "@authsvc/adapters/testing";
import { productionServerEnv, roleKey } from "@authsvc/http/testing";
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
 * through it at once, and what the instances must share holds through it — a refresh race answered
 * with one child, the per-IP limit counted once between them, the hourly email cap shared. (The
 * same checks without PgBouncer: refresh-tokens, request-limits and messages e2e tests.)
 */
const runnable = pgbouncerInstalled() && !testDatabase().embedded;
if (!pgbouncerInstalled()) console.warn(PGBOUNCER_MISSING);
else if (testDatabase().embedded) {
  console.warn("PgBouncer tests NOT RUN: the test database is the embedded one (set TEST_DATABASE_URL)");
}

const cwd = mkdtempSync(join(tmpdir(), "authsvc-pgbouncer-e2e-"));
let bouncer: PgBouncer;
let ns: FreshNamespace;
let sink: Awaited<ReturnType<typeof startSmtpSink>>;
let a: ServerProcess;
let b: ServerProcess;
let counter = 0;

describe.skipIf(!runnable)("two instances behind PgBouncer in transaction mode", () => {
  beforeAll(async () => {
    // Not migrated here: the two servers migrate it, through PgBouncer, at the same time.
    ns = await freshNamespace();
    bouncer = await startPgBouncer(testDatabase().url, { poolSize: 8 });
    sink = await startSmtpSink();
    const env = {
      ...productionServerEnv(ns, {
        // (The email cap does not apply with autoconfirm on: users here are created confirmed.)
        AUTHSVC_SMTP_HOST: sink.host,
        AUTHSVC_SMTP_PORT: String(sink.port),
        AUTHSVC_SMTP_ADMIN_EMAIL: "auth@example.com",
        AUTHSVC_RATE_LIMIT_EMAIL_SENT: "3",
        AUTHSVC_RATE_LIMIT_HEADER: "X-Forwarded-For",
        AUTHSVC_RATE_LIMIT_VERIFY: "30",
        AUTHSVC_API_TRUSTED_PROXY_HOPS: "1",
      }),
      DATABASE_URL: bouncer.url,
      // PgBouncer in transaction mode keeps no named statement from one transaction to the next.
      AUTHSVC_DB_PREPARED_STATEMENTS: "false",
    };
    [a, b] = await Promise.all([startServer(env, { cwd }), startServer(env, { cwd })]);
  }, 60_000);

  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await bouncer?.stop();
    await sink?.close();
    await ns?.drop();
    rmSync(cwd, { recursive: true, force: true });
  });

  async function post(
    server: ServerProcess,
    path: string,
    body: unknown,
    headers: Record<string, string> = {},
  ) {
    const res = await fetch(`${server.url}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  }

  async function createUser(email: string) {
    const service = await roleKey("service_role");
    const created = await post(
      a,
      "/admin/users",
      { email, password: "secret-pw", email_confirm: true },
      { authorization: `Bearer ${service}`, apikey: service },
    );
    expect(created.status).toBe(200);
  }

  it("both migrated the schema once, through PgBouncer, and answer", async () => {
    const [row] = await ns.sql`
      select count(*)::int as applied from ${ns.sql(ns.namespace)}.schema_migrations
    `;
    expect(row?.applied).toBeGreaterThan(0);
    for (const server of [a, b]) expect((await fetch(`${server.url}/health`)).status).toBe(200);
  });

  it("16 parallel refreshes of one token across the two instances all receive one and the same child", async () => {
    const email = `bouncer-${Date.now()}-${++counter}@example.com`;
    await createUser(email);
    const signin = await post(b, "/token?grant_type=password", { email, password: "secret-pw" });
    expect(signin.status).toBe(200);
    const t0 = String(signin.body.refresh_token);
    const results = await Promise.all(
      Array.from({ length: 16 }, (_, i) =>
        post(i % 2 === 0 ? a : b, "/token?grant_type=refresh_token", { refresh_token: t0 }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(Array(16).fill(200));
    const children = new Set(results.map((r) => r.body.refresh_token));
    expect(children.size).toBe(1);
    const childHash = createHash("sha256")
      .update(String([...children][0]))
      .digest("hex");
    const [live] = await ns.sql`
      select count(*)::int as n from ${ns.sql(ns.namespace)}.refresh_tokens t
      where not t.revoked and t.session_id =
        (select session_id from ${ns.sql(ns.namespace)}.refresh_tokens where token_hash = ${childHash})`;
    expect(live?.n).toBe(1);
  });

  it("let 30 /verify from one client through between them, then refuse it on both", async () => {
    const statuses = async (ip: string, times: number) => {
      const out: number[] = [];
      for (let i = 0; i < times; i++) {
        const res = await fetch(`${(i % 2 === 0 ? a : b).url}/verify`, {
          method: "POST",
          headers: { "content-type": "application/json", "x-forwarded-for": ip },
          body: JSON.stringify({ type: "signup", token_hash: "nope" }),
        });
        out.push(res.status);
      }
      return out;
    };
    const ip = `198.51.100.${Math.floor(Math.random() * 250) + 1}`;
    expect(await statuses(ip, 30)).not.toContain(429);
    expect(await statuses(ip, 2)).toEqual([429, 429]);
    expect(await statuses("203.0.113.9", 2)).not.toContain(429);
  });

  it("share the hourly email cap: the fourth recovery mail between them is refused", async () => {
    const emails: string[] = [];
    for (let i = 0; i < 4; i++) {
      const email = `bouncer-cap-${Date.now()}-${++counter}@example.com`;
      await createUser(email);
      emails.push(email);
    }
    const statuses: number[] = [];
    const codes: unknown[] = [];
    for (const [i, email] of emails.entries()) {
      const res = await post(i % 2 === 0 ? a : b, "/recover", { email });
      statuses.push(res.status);
      codes.push(res.body.error_code);
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
    expect(codes[3]).toBe("over_email_send_rate_limit");
    for (const email of emails.slice(0, 3)) await sink.next(email);
  });
});
