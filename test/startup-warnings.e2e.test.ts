import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type FreshNamespace, migratedNamespace } from "@authsvc/adapters/testing";
import { productionServerEnv } from "@authsvc/http/testing";
import { GoTrueClient } from "@supabase/auth-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runServer, type ServerProcess, startServer } from "./support/server-process.js";

/**
 * A production server started as an operator might get it wrong: a misspelt variable, a GoTrue name,
 * and confirmations on with no way to send mail. It starts, and says so.
 */
const MISSPELT_VALUE = "a-value-that-must-never-be-logged";
let server: ServerProcess;
let ns: FreshNamespace;
const cwd = mkdtempSync(join(tmpdir(), "authsvc-warnings-"));

beforeAll(async () => {
  ns = await migratedNamespace();
  server = await startServer(
    productionServerEnv(ns, { AUTHSVC_JWT_SECERT: MISSPELT_VALUE, GOTRUE_SITE_URL: MISSPELT_VALUE }),
    { cwd },
  );
}, 60_000);

afterAll(async () => {
  await server?.stop();
  await ns?.drop();
  rmSync(cwd, { recursive: true, force: true });
});

const warnings = () => server.lines().filter((line) => line.level === "warn");

/** Resolves with the first log line `match` accepts, looking every 20 ms (the log gives no event). */
function logLine(match: (line: Record<string, unknown>) => boolean, timeoutMs = 10_000) {
  return new Promise<Record<string, unknown>>((resolve, reject) => {
    const started = Date.now();
    const poll = setInterval(() => {
      const found = server.lines().find(match);
      if (found) {
        clearInterval(poll);
        resolve(found);
      } else if (Date.now() - started > timeoutMs) {
        clearInterval(poll);
        reject(new Error("no such log line"));
      }
    }, 20);
  });
}

describe("warnings at start", () => {
  it("names the variable a misspelt one meant and the AUTHSVC_ name of a GoTrue one, never a value", () => {
    const messages = warnings().map((line) => String(line.msg));
    expect(messages).toContain(
      "AUTHSVC_JWT_SECERT is not a variable of this server and is ignored; did you mean AUTHSVC_JWT_SECRET?",
    );
    expect(messages).toContain("GOTRUE_SITE_URL is not read (GoTrue's name): set AUTHSVC_SITE_URL instead");
    expect(server.stderr() + JSON.stringify(server.lines())).not.toContain(MISSPELT_VALUE);
  });

  it("says that no mail can be sent, naming the features that need it", () => {
    expect(warnings()).toContainEqual(
      expect.objectContaining({
        msg: expect.stringContaining("no mail can be sent"),
        mail_features: expect.arrayContaining(["sign-up confirmations", "password recovery"]),
      }),
    );
  });
});

describe("a database that does not vacuum by itself", () => {
  it("is named at start exactly when its autovacuum is off", async () => {
    const [setting] = await ns.sql<{ autovacuum: string }[]>`show autovacuum`;
    const warned = warnings().some((line) => line.autovacuum === "off");
    // This machine's PostgreSQL runs with it off; a default one (or PGlite) with it on.
    expect(warned).toBe(setting?.autovacuum === "off");
    if (warned)
      expect(warnings()).toContainEqual(
        expect.objectContaining({ msg: expect.stringContaining("run one regularly") }),
      );
  });
});

describe("without a way to send mail", () => {
  it("GET /health/ready names it in warnings and stays ready", async () => {
    const res = await fetch(`${server.url}/health/ready`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      status: "ok",
      checks: { database: "ok" },
      warnings: { mail: expect.stringContaining("sign-up confirmations") },
    });
  });

  it("a sign-up is answered, then removed with a log line that says why, without the address", async () => {
    const email = `vanishing-${Date.now()}@example.com`;
    const client = new GoTrueClient({ url: server.url, autoRefreshToken: false, persistSession: false });
    const { data, error } = await client.signUp({ email, password: "secret-pw-1" });
    expect(error).toBeNull();
    const line = await logLine((l) => Array.isArray(l.removed_user_ids));
    expect(line).toMatchObject({
      level: "warn",
      msg: expect.stringContaining("removed because its confirmation could not be delivered"),
      error_code: "email_send_failed",
      removed_user_ids: [data.user?.id],
    });
    expect(JSON.stringify(line)).not.toContain(email);
    const rows = await ns.sql`select id from ${ns.sql(ns.namespace)}.users where email = ${email}`;
    expect(rows).toEqual([]);
  });
});

describe("a configuration that is refused", () => {
  it("gives the hints about misspelt and GoTrue names with its problems, never a value", async () => {
    const { AUTHSVC_JWT_SECRET: _secret, ...env } = productionServerEnv(ns, {
      AUTHSVC_JWT_SECERT: MISSPELT_VALUE,
      GOTRUE_SITE_URL: MISSPELT_VALUE,
    });
    const run = await runServer(env, { cwd });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("AUTHSVC_JWT_SECRET: required");
    expect(run.stderr).toContain(
      "AUTHSVC_JWT_SECERT is not a variable of this server and is ignored; did you mean AUTHSVC_JWT_SECRET?",
    );
    expect(run.stderr).toContain("GOTRUE_SITE_URL is not read (GoTrue's name): set AUTHSVC_SITE_URL instead");
    expect(run.stderr + run.stdout).not.toContain(MISSPELT_VALUE);
  });

  it("refuses Supabase's published demo JWT secret on a real database, without printing it", async () => {
    const published = "super-secret-jwt-token-with-at-least-32-characters-long";
    const run = await runServer(productionServerEnv(ns, { AUTHSVC_JWT_SECRET: published }), { cwd });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("AUTHSVC_JWT_SECRET: this secret is published in example files");
    expect(run.stderr + run.stdout).not.toContain(published);
  });
});
