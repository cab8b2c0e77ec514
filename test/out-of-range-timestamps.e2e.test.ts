import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type FreshNamespace, migratedNamespace } from "@authsvc/adapters/testing";
import { productionServerEnv, roleKey } from "@authsvc/http/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jsonCaller } from "./support/json-call.js";
import { type ServerProcess, startServer } from "./support/server-process.js";

/**
 * Timestamps PostgreSQL holds and a JavaScript Date cannot — `infinity`, `-infinity`, years past
 * 275760 or before Christ — written into users' rows by hand (or by an old import): every page that
 * shows such a user answers, with the time clamped to 0001-01-01 … 9999-12-31, and a ban until
 * `infinity` still bans.
 */
let server: ServerProcess;
let ns: FreshNamespace;
let admin: Record<string, string>;
const cwd = mkdtempSync(join(tmpdir(), "authsvc-timestamps-"));
const PASSWORD = "a-long-enough-password";

beforeAll(async () => {
  ns = await migratedNamespace();
  admin = { authorization: `Bearer ${await roleKey("service_role")}` };
  server = await startServer(productionServerEnv(ns), { cwd });
}, 60_000);

afterAll(async () => {
  await server?.stop();
  await ns?.drop();
  rmSync(cwd, { recursive: true, force: true });
});

const call = jsonCaller(() => server.url);

async function createUser(email: string): Promise<string> {
  const created = await call(
    "POST",
    "/admin/users",
    { email, password: PASSWORD, email_confirm: true },
    admin,
  );
  expect(created.status).toBe(200);
  return String(created.body.id);
}

const signIn = (email: string) => call("POST", "/token?grant_type=password", { email, password: PASSWORD });
const users = () => ns.sql(`${ns.namespace}.users`);

describe("stored timestamps a JavaScript Date cannot hold", () => {
  it("GET /user and the admin pages answer 200, the times clamped into four-digit years", async () => {
    const id = await createUser("far@example.com");
    const session = await signIn("far@example.com");
    expect(session.status).toBe(200);
    await ns.sql`
      update ${users()} set
        last_sign_in_at = '294276-12-31 23:59:59+00',
        invited_at = 'infinity',
        confirmation_sent_at = '-infinity',
        recovery_sent_at = '4713-01-01 00:00:00+00 BC',
        created_at = '-infinity',
        updated_at = '20000-01-01 00:00:00+00'
      where id = ${id}
    `;
    const me = await call("GET", "/user", undefined, {
      authorization: `Bearer ${session.body.access_token}`,
    });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({
      id,
      last_sign_in_at: "9999-12-31T23:59:59.999Z",
      invited_at: "9999-12-31T23:59:59.999Z",
      confirmation_sent_at: "0001-01-01T00:00:00.000Z",
      recovery_sent_at: "0001-01-01T00:00:00.000Z",
      created_at: "0001-01-01T00:00:00.000Z",
      updated_at: "9999-12-31T23:59:59.999Z",
    });
    const one = await call("GET", `/admin/users/${id}`, undefined, admin);
    expect(one.status).toBe(200);
    expect(one.body.last_sign_in_at).toBe("9999-12-31T23:59:59.999Z");
    const list = await call("GET", "/admin/users", undefined, admin);
    expect(list.status).toBe(200);
    expect((list.body.users as { id: string }[]).map((u) => u.id)).toContain(id);
  });

  it("a ban until infinity still bans; one until -infinity is over", async () => {
    const banned = await createUser("banned-forever@example.com");
    const free = await createUser("ban-long-over@example.com");
    await ns.sql`update ${users()} set banned_until = 'infinity' where id = ${banned}`;
    await ns.sql`update ${users()} set banned_until = '-infinity' where id = ${free}`;
    const refused = await signIn("banned-forever@example.com");
    expect(refused.status).toBe(400);
    expect(refused.body.error_code ?? refused.body.code).toBe("user_banned");
    expect((await signIn("ban-long-over@example.com")).status).toBe(200);
    const shown = await call("GET", `/admin/users/${banned}`, undefined, admin);
    expect(shown.status).toBe(200);
    expect(shown.body.banned_until).toBe("9999-12-31T23:59:59.999Z");
    const list = await call("GET", "/admin/users", undefined, admin);
    expect(list.status).toBe(200);
  });
});
