import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type FreshNamespace, migratedNamespace } from "@authsvc/adapters/testing";
import { productionServerEnv, roleKey } from "@authsvc/http/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ServerProcess, startServer } from "./support/server-process.js";

/**
 * Postgres-function hooks whose target cannot be called: the server says so at start (naming the
 * variable and why), and each failed call answers the reference's hook error and logs the database's
 * own error (message and SQLSTATE), with no session left behind.
 */
const cwd = mkdtempSync(join(tmpdir(), "authsvc-hook-targets-"));
const PASSWORD = "correct horse battery";
let ns: FreshNamespace;
let server: ServerProcess;
let missingUri: string;

beforeAll(async () => {
  ns = await migratedNamespace();
  // A function of the right name but the wrong argument type: not callable with the payload.
  await ns.sql.unsafe(`
    create function ${ns.namespace}.wrong_signature(event text) returns jsonb language sql as $$
      select '{}'::jsonb
    $$`);
  missingUri = `pg-functions://postgres/${ns.namespace}/no_such_hook`;
  server = await startServer(
    productionServerEnv(ns, {
      AUTHSVC_HOOK_CUSTOM_ACCESS_TOKEN_ENABLED: "true",
      AUTHSVC_HOOK_CUSTOM_ACCESS_TOKEN_URI: missingUri,
      AUTHSVC_HOOK_PASSWORD_VERIFICATION_ATTEMPT_ENABLED: "true",
      AUTHSVC_HOOK_PASSWORD_VERIFICATION_ATTEMPT_URI: `pg-functions://postgres/${ns.namespace}/wrong_signature`,
    }),
    { cwd },
  );
});

afterAll(async () => {
  await server?.stop();
  await ns?.drop();
  rmSync(cwd, { recursive: true, force: true });
});

describe("Postgres-function hook targets", () => {
  it("are checked at start: an error names the variable and what is wrong with each target", () => {
    const errors = server.lines().filter((line) => line.msg === "hook target cannot be called");
    expect(errors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          level: "error",
          variable: "AUTHSVC_HOOK_CUSTOM_ACCESS_TOKEN_URI",
          problem: `function ${ns.namespace}.no_such_hook(jsonb) does not exist`,
        }),
        expect.objectContaining({
          level: "error",
          variable: "AUTHSVC_HOOK_PASSWORD_VERIFICATION_ATTEMPT_URI",
          problem: `function ${ns.namespace}.wrong_signature(jsonb) does not exist (found: ${ns.namespace}.wrong_signature(text))`,
        }),
      ]),
    );
    expect(errors).toHaveLength(2);
  });

  it("answer the reference's hook error when the call fails, and log the database's error", async () => {
    await ns.sql.unsafe(`drop function ${ns.namespace}.wrong_signature(text)`);
    await ns.sql.unsafe(`
      create function ${ns.namespace}.wrong_signature(event jsonb) returns jsonb language sql as $$
        select '{"decision": "continue"}'::jsonb
      $$`);
    const key = await roleKey("service_role");
    const created = await fetch(`${server.url}/admin/users`, {
      method: "POST",
      headers: { apikey: key, authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ email: "hooked@example.com", password: PASSWORD, email_confirm: true }),
    });
    const { id } = (await created.json()) as { id: string };

    const res = await fetch(`${server.url}/token?grant_type=password`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "hooked@example.com", password: PASSWORD }),
    });
    expect(res.status).toBe(500);
    expect(await res.json()).toMatchObject({
      error_code: "unexpected_failure",
      msg: `Error running hook URI: ${missingUri}`,
    });
    const [row] = await ns.sql`
      select count(*)::int as n from ${ns.sql(ns.namespace)}.sessions where user_id = ${id}`;
    expect(row?.n).toBe(0);
    const failed = server
      .lines()
      .filter((line) => line.action === "run_hook" && line.hook === "custom_access_token");
    expect(failed.at(-1)).toMatchObject({
      success: false,
      error: `function ${ns.namespace}.no_such_hook(jsonb) does not exist`,
      db_code: "42883",
    });
    // Nothing of the payload (claims, addresses) reaches the log line.
    expect(JSON.stringify(failed.at(-1))).not.toContain("hooked@example.com");
  });
});
