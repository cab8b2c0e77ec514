import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type FreshNamespace, migratedNamespace } from "@authsvc/adapters/testing";
import { productionServerEnv, roleKey } from "@authsvc/http/testing";
import bcrypt from "bcryptjs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jsonCaller } from "./support/json-call.js";
import { type ServerProcess, startServer } from "./support/server-process.js";

/** Raw-HTTP checks of the accounts endpoints that the official client does not expose directly. */
let server: ServerProcess;
let ns: FreshNamespace;
let admin: Record<string, string>;
const cwd = mkdtempSync(join(tmpdir(), "authsvc-accounts-http-"));

beforeAll(async () => {
  ns = await migratedNamespace();
  admin = { authorization: `Bearer ${await roleKey("service_role")}` };
  server = await startServer(
    productionServerEnv(ns, {
      AUTHSVC_MAILER_AUTOCONFIRM: "true",
      AUTHSVC_PASSWORD_REQUIRED_CHARACTERS: "0123456789",
    }),
    { cwd },
  );
}, 60_000);

afterAll(async () => {
  await server?.stop();
  await ns?.drop();
  rmSync(cwd, { recursive: true, force: true });
});

const call = jsonCaller(() => server.url);

/** The session id an answer's access token names. */
const sessionOf = (body: Record<string, unknown>): string =>
  JSON.parse(Buffer.from(String(body.access_token).split(".")[1] ?? "", "base64url").toString()).session_id;

let n = 0;
const email = (tag: string) => `${tag}-${Date.now()}-${++n}@example.com`;

describe("accounts over raw HTTP", () => {
  it("a weak password is 422 weak_password with its reasons, in both body shapes", async () => {
    const legacy = await call("POST", "/signup", { email: email("weak"), password: "abc" });
    expect(legacy.status).toBe(422);
    expect(legacy.body).toMatchObject({
      code: 422,
      error_code: "weak_password",
      weak_password: { reasons: ["length", "characters"] },
    });
    expect(legacy.headers.get("x-sb-error-code")).toBe("weak_password");
    const versioned = await call(
      "POST",
      "/signup",
      { email: email("weak"), password: "abcdefgh" },
      {
        "X-Supabase-Api-Version": "2024-01-01",
      },
    );
    expect(versioned.status).toBe(422);
    expect(versioned.body).toEqual({
      code: "weak_password",
      message: expect.stringContaining("0123456789"),
      weak_password: { reasons: ["characters"] },
    });
  });

  it("an imported bcrypt hash signs in and is rehashed to argon2id", async () => {
    const address = email("import");
    const hash = await bcrypt.hash("imported-pw-1", 10);
    const created = await call(
      "POST",
      "/admin/users",
      { email: address, password_hash: hash, email_confirm: true },
      admin,
    );
    expect(created.status).toBe(200);
    const table = ns.sql(ns.namespace);
    const before = await ns.sql`select encrypted_password from ${table}.users where email = ${address}`;
    expect(before[0]?.encrypted_password).toBe(hash);
    const signIn = await call("POST", "/token?grant_type=password", {
      email: address,
      password: "imported-pw-1",
    });
    expect(signIn.status).toBe(200);
    const after = await ns.sql`select encrypted_password from ${table}.users where email = ${address}`;
    expect(after[0]?.encrypted_password).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(
      (await call("POST", "/token?grant_type=password", { email: address, password: "imported-pw-1" }))
        .status,
    ).toBe(200);
  });

  it("many password sign-ins of one user at once: each its own session, login entry and stamp", async () => {
    const address = email("many");
    const signup = await call("POST", "/signup", { email: address, password: "secret-pw-1" });
    const user = signup.body.user as { id: string };
    const signIns = await Promise.all(
      Array.from({ length: 12 }, () =>
        call("POST", "/token?grant_type=password", { email: address, password: "secret-pw-1" }),
      ),
    );
    expect(signIns.map((r) => r.status)).toEqual(Array(12).fill(200));
    const table = ns.sql(ns.namespace);
    const sessionIds = signIns.map((r) => sessionOf(r.body));
    expect(new Set(sessionIds).size).toBe(12);
    const stored = await ns.sql`select id from ${table}.sessions where user_id = ${user.id}`;
    expect(stored.map((r) => r.id)).toEqual(expect.arrayContaining(sessionIds));
    // Every session has its refresh token, and every answer's refresh token works.
    const refreshed = await Promise.all(
      signIns.map((r) =>
        call("POST", "/token?grant_type=refresh_token", { refresh_token: r.body.refresh_token }),
      ),
    );
    expect(refreshed.map((r) => r.status)).toEqual(Array(12).fill(200));
    const logins = await ns.sql`
      select payload from ${table}.audit_log_entries
      where payload->>'actor_id' = ${user.id} and payload->>'action' = 'login'`;
    // The sign-up's own login, then one per sign-in, each the reference's payload.
    expect(logins).toHaveLength(13);
    for (const { payload } of logins) {
      expect(payload).toEqual({
        actor_id: user.id,
        actor_username: address,
        actor_via_sso: false,
        action: "login",
        log_type: "account",
        traits: { provider: "email" },
      });
    }
    // Each answer carries the user as its sign-in stamped it; the row keeps the latest stamp.
    const stamps = signIns.map((r) =>
      Date.parse((r.body.user as { last_sign_in_at: string }).last_sign_in_at),
    );
    const [row] =
      await ns.sql`select last_sign_in_at, encrypted_password from ${table}.users where id = ${user.id}`;
    expect(row?.last_sign_in_at.getTime()).toBe(Math.max(...stamps));
    expect(row?.encrypted_password).toMatch(/^\$argon2id\$/);
  });

  it("POST /admin/users/<id> creates the user with that id; a malformed id is 404", async () => {
    const id = "2b7f3c1e-8d4a-4f6b-9c2d-1e3f5a7b9c0d";
    const res = await call(
      "POST",
      `/admin/users/${id}`,
      { email: email("withid"), password: "secret-pw-1" },
      admin,
    );
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(id);
    expect((await call("GET", `/admin/users/${id}`, undefined, admin)).body.id).toBe(id);
    expect((await call("GET", "/admin/users/not-a-uuid", undefined, admin)).status).toBe(404);
  });

  it("the admin list has x-total-count and the reference's link format", async () => {
    await call("POST", "/admin/users", { email: email("list"), password: "secret-pw-1" }, admin);
    await call("POST", "/admin/users", { email: email("list"), password: "secret-pw-1" }, admin);
    const res = await call("GET", "/admin/users?page=1&per_page=1", undefined, admin);
    const total = Number(res.headers.get("x-total-count"));
    expect(total).toBeGreaterThanOrEqual(2);
    expect(res.headers.get("link")).toBe(
      `</admin/users?page=2&per_page=1>; rel="next", </admin/users?page=${total}&per_page=1>; rel="last"`,
    );
    expect((await call("GET", "/admin/users?page=-1", undefined, admin)).status).toBe(400);
  });

  it("writes audit entries in the same transaction as the change", async () => {
    const address = email("audit");
    const signup = await call("POST", "/signup", { email: address, password: "secret-pw-1" });
    await call("POST", "/token?grant_type=refresh_token", { refresh_token: signup.body.refresh_token });
    await call("POST", "/logout", undefined, { authorization: `Bearer ${signup.body.access_token}` });
    const user = signup.body.user as { id: string };
    const rows = await ns.sql`
      select payload->>'action' as action from ${ns.sql(ns.namespace)}.audit_log_entries
      where payload->>'actor_id' = ${user.id} order by created_at, id`;
    expect(rows.map((r) => r.action)).toEqual(
      expect.arrayContaining(["user_signedup", "login", "token_refreshed", "token_revoked", "logout"]),
    );
  });

  it("logout with an unknown scope is 400, and 204 otherwise", async () => {
    const signup = await call("POST", "/signup", { email: email("scope"), password: "secret-pw-1" });
    const auth = { authorization: `Bearer ${signup.body.access_token}` };
    expect((await call("POST", "/logout?scope=everything", undefined, auth)).status).toBe(400);
    const res = await fetch(`${server.url}/logout?scope=local`, { method: "POST", headers: auth });
    expect(res.status).toBe(204);
    expect(await res.text()).toBe("");
  });

  it("GET /user without a token is 401, with a forged token 403 bad_jwt", async () => {
    expect((await call("GET", "/user")).body).toMatchObject({ code: 401, error_code: "no_authorization" });
    const forged = await roleKey("authenticated", "some-other-secret-of-32-characters!!");
    const res = await call("GET", "/user", undefined, { authorization: `Bearer ${forged}` });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ error_code: "bad_jwt" });
    expect(String(res.body.msg)).toMatch(/^invalid JWT: unable to parse or verify signature/);
  });
});
