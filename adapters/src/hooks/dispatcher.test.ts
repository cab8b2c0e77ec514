import type { User } from "@authsvc/core/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postgresStore } from "../postgres/store.js";
import { type FreshNamespace, migratedNamespace, testDatabase } from "../testing/database.js";
import { type HookRun, hookDispatcher } from "./dispatcher.js";
import { parseHookSecrets, parseHookUri } from "./hook-uri.js";

/** Postgres-function hooks on a real database: the timeout, errors. */
describe("hookDispatcher with pg-functions", () => {
  let ns: FreshNamespace;
  beforeAll(async () => {
    ns = await migratedNamespace();
    const s = ns.namespace;
    await ns.sql.unsafe(`
      create table ${s}.hook_calls (payload jsonb);
      create function ${s}.record_and_claim(event jsonb) returns jsonb language plpgsql as $$
      begin
        insert into ${s}.hook_calls values (event);
        return jsonb_build_object('claims', event->'claims' || '{"extra": true}'::jsonb,
          'timeout', current_setting('statement_timeout'));
      end $$;
      create function ${s}.refuse(event jsonb) returns jsonb language sql as $$
        select '{"error": {"http_code": 422, "message": "No, said the database"}}'::jsonb $$;
      create function ${s}.slow(event jsonb) returns jsonb language sql as $$
        select jsonb_build_object('slept', pg_sleep(1)::text) $$;
      create function ${s}.broken(event jsonb) returns jsonb language sql as $$ select to_jsonb(1 / 0) $$;
    `);
  });
  afterAll(async () => ns.drop());

  const dispatcher = (fn: string, postgresTimeoutMs?: number, runs: HookRun[] = []) => {
    const store = postgresStore(ns.sql, { namespace: ns.namespace });
    return {
      store,
      hooks: hookDispatcher({
        hooks: { custom_access_token: { uri: `pg-functions://postgres/${ns.namespace}/${fn}`, secrets: [] } },
        functions: store.hookFunctions,
        presentUser: (user: User) => ({ id: user.id }),
        onRun: (run) => void runs.push(run),
        ...(postgresTimeoutMs ? { postgresTimeoutMs } : {}),
      }),
    };
  };
  const input = { user_id: "u1", claims: { sub: "u1" }, authentication_method: "password" };

  it("runs the function in a transaction of its own under the statement timeout", async () => {
    const { hooks } = dispatcher("record_and_claim");
    expect(hooks.enabled("custom_access_token")).toBe(true);
    expect(hooks.overHttp("custom_access_token")).toBe(false);
    const answer = await hooks.run("custom_access_token", input);
    expect(answer).toEqual({ ok: true, value: { claims: { sub: "u1", extra: true }, timeout: "2s" } });
    const [row] = await ns.sql`select payload from ${ns.sql(ns.namespace)}.hook_calls`;
    expect(row?.payload).toMatchObject({
      ...input,
      metadata: { name: "customize-access-token", uuid: expect.any(String), time: expect.any(String) },
    });
  });

  it("answers the function's error object as the hook's refusal", async () => {
    const answer = await dispatcher("refuse").hooks.run("custom_access_token", input);
    expect(!answer.ok && answer.error).toMatchObject({ httpStatus: 422, message: "No, said the database" });
  });

  it("throws a 500 naming the hook when the function fails, and reports the database's error", async () => {
    const uri = (fn: string) => `pg-functions://postgres/${ns.namespace}/${fn}`;
    const runs: HookRun[] = [];
    await expect(
      dispatcher("broken", undefined, runs).hooks.run("custom_access_token", input),
    ).rejects.toMatchObject({
      code: "unexpected_failure",
      message: `Error running hook URI: ${uri("broken")}`,
    });
    await expect(
      dispatcher("missing", undefined, runs).hooks.run("custom_access_token", input),
    ).rejects.toMatchObject({
      code: "unexpected_failure",
      message: `Error running hook URI: ${uri("missing")}`,
    });
    expect(runs).toEqual([
      expect.objectContaining({ success: false, error: "division by zero", dbCode: "22012" }),
      expect.objectContaining({
        success: false,
        error: `function ${ns.namespace}.missing(jsonb) does not exist`,
        dbCode: "42883",
      }),
    ]);
  });

  it("cancels a function that outlives its statement timeout (the embedded database keeps no timers)", async () => {
    const slow = dispatcher("slow", 200).hooks.run("custom_access_token", input);
    if (testDatabase().embedded) {
      // PGlite runs in-process without signals: statement_timeout is accepted but not enforced.
      await expect(slow).resolves.toMatchObject({ ok: true });
      return;
    }
    const started = Date.now();
    await expect(slow).rejects.toMatchObject({
      message: `Error running hook URI: pg-functions://postgres/${ns.namespace}/slow`,
    });
    expect(Date.now() - started).toBeLessThan(900);
  });
});

describe("parseHookUri and parseHookSecrets", () => {
  it("accept the reference's forms and refuse the rest", () => {
    expect(parseHookUri("pg-functions://postgres/public/my_hook")).toEqual({
      kind: "postgres",
      schema: "public",
      name: "my_hook",
    });
    expect(parseHookUri("https://hooks.example.com/x")).toEqual({
      kind: "http",
      url: "https://hooks.example.com/x",
    });
    expect(parseHookUri("http://localhost:3000/x")).toMatchObject({ kind: "http" });
    expect(parseHookUri("http://[::1]:3000/x")).toMatchObject({ kind: "http" });
    expect(parseHookUri("http://hooks.example.com/x")).toHaveProperty("problem");
    expect(parseHookUri("pg-functions://postgres/public")).toHaveProperty("problem");
    expect(parseHookUri('pg-functions://postgres/public/x";drop')).toHaveProperty("problem");
    expect(parseHookUri("ftp://x/y")).toHaveProperty("problem");
    const secret = `v1,whsec_${"A".repeat(40)}`;
    expect(parseHookSecrets(`${secret}|${secret}`)).toEqual([secret, secret]);
    expect(parseHookSecrets("whsec_abc")).toHaveProperty("problem");
  });
});
