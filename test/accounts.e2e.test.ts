import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  type FreshNamespace,
  migratedNamespace,
  type ReceivedMail,
  startSmtpSink,
} from "@authsvc/adapters/testing";
import { productionServerEnv, roleKey } from "@authsvc/http/testing";
import { AuthApiError, GoTrueAdminApi, GoTrueClient } from "@supabase/auth-js";
import { decodeJwt } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ServerProcess, startServer } from "./support/server-process.js";

/**
 * The official client against the real server process on a real database: one server with
 * autoconfirm (sessions on sign-up) and one without (confirmation mail through a real SMTP server).
 */
let auto: ServerProcess;
let confirming: ServerProcess;
let ns: FreshNamespace;
let sink: Awaited<ReturnType<typeof startSmtpSink>>;
let serviceKey: string;
const cwd = mkdtempSync(join(tmpdir(), "authsvc-accounts-"));

beforeAll(async () => {
  ns = await migratedNamespace();
  sink = await startSmtpSink();
  serviceKey = await roleKey("service_role");
  [auto, confirming] = await Promise.all([
    startServer(
      productionServerEnv(ns, {
        AUTHSVC_MAILER_AUTOCONFIRM: "true",
        AUTHSVC_SMS_AUTOCONFIRM: "true",
        AUTHSVC_EXTERNAL_PHONE_ENABLED: "true",
        AUTHSVC_EXTERNAL_ANONYMOUS_USERS_ENABLED: "true",
      }),
      { cwd },
    ),
    startServer(
      productionServerEnv(ns, {
        AUTHSVC_SMTP_HOST: sink.host,
        AUTHSVC_SMTP_PORT: String(sink.port),
        AUTHSVC_SMTP_ADMIN_EMAIL: "auth@example.com",
        AUTHSVC_SMTP_SENDER_NAME: "Example Auth",
      }),
      { cwd },
    ),
  ]);
}, 60_000);

afterAll(async () => {
  await Promise.all([auto?.stop(), confirming?.stop()]);
  await sink?.close();
  await ns?.drop();
  rmSync(cwd, { recursive: true, force: true });
});

const client = (server: ServerProcess) =>
  new GoTrueClient({ url: server.url, autoRefreshToken: false, persistSession: false });
const adminApi = (server: ServerProcess) =>
  new GoTrueAdminApi({ url: server.url, headers: { Authorization: `Bearer ${serviceKey}` } });

let counter = 0;
const uniqueEmail = (tag: string) => `${tag}-${Date.now()}-${++counter}@example.com`;
const uniquePhone = () => `1555${String(Date.now()).slice(-6)}${String(++counter).padStart(1, "0")}`;

describe("sign-up", () => {
  it("with autoconfirm answers a session whose user carries the metadata exactly as sent", async () => {
    const email = uniqueEmail("Auto");
    const { data, error } = await client(auto).signUp({
      email,
      password: "secret-pw",
      options: { data: { plan: "pro", n: 1 } },
    });
    expect(error).toBeNull();
    expect(data.session?.token_type).toBe("bearer");
    expect(data.session?.expires_in).toBe(3600);
    expect(data.user).toMatchObject({
      email: email.toLowerCase(),
      phone: "",
      aud: "authenticated",
      role: "authenticated",
      app_metadata: { provider: "email", providers: ["email"] },
      is_anonymous: false,
    });
    expect(data.user?.user_metadata).toEqual({ plan: "pro", n: 1 });
    expect(typeof data.user?.email_confirmed_at).toBe("string");
    const claims = decodeJwt(data.session?.access_token ?? "");
    expect(claims).toMatchObject({
      sub: data.user?.id,
      aud: "authenticated",
      role: "authenticated",
      email: email.toLowerCase(),
      phone: "",
      aal: "aal1",
      is_anonymous: false,
      session_id: expect.any(String),
      amr: [{ method: "password", timestamp: expect.any(Number) }],
    });
    expect(Number(claims.exp) - Number(claims.iat)).toBe(3600);
  });

  it("a duplicate under autoconfirm is 400 user_already_exists", async () => {
    const email = uniqueEmail("dup");
    await client(auto).signUp({ email, password: "secret-pw" });
    const { error } = await client(auto).signUp({ email, password: "other-pw" });
    expect(error).toBeInstanceOf(AuthApiError);
    expect(error).toMatchObject({
      status: 400,
      code: "user_already_exists",
      message: "User already registered",
    });
  });

  it("without autoconfirm answers the user, mails the confirmation, and refuses sign-in until confirmed", async () => {
    const email = uniqueEmail("confirm");
    const { data, error } = await client(confirming).signUp({ email, password: "secret-pw" });
    expect(error).toBeNull();
    expect(data.session).toBeNull();
    expect(data.user).toMatchObject({ email, phone: "" });
    expect(typeof data.user?.confirmation_sent_at).toBe("string");
    expect(data.user?.email_confirmed_at).toBeUndefined();
    const mail: ReceivedMail = await sink.next(email);
    expect(mail.subject).toBe("Confirm Your Signup");
    expect(mail.from).toBe("auth@example.com");
    const signIn = await client(confirming).signInWithPassword({ email, password: "secret-pw" });
    expect(signIn.error).toMatchObject({ status: 400, code: "email_not_confirmed" });
  });

  it("a duplicate without autoconfirm answers a fake user with a fresh id, and creates nothing", async () => {
    const email = uniqueEmail("fake");
    const first = await client(confirming).signUp({ email, password: "secret-pw" });
    const second = await client(confirming).signUp({ email, password: "secret-pw" });
    expect(second.error).toBeNull();
    expect(second.data.user?.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(second.data.user?.id).not.toBe(first.data.user?.id);
    expect(Object.keys(second.data.user ?? {}).sort()).toEqual(Object.keys(first.data.user ?? {}).sort());
    const rows = await ns.sql`select id from ${ns.sql(ns.namespace)}.users where email = ${email}`;
    expect(rows.map((r) => r.id)).toEqual([first.data.user?.id]);
  });

  it("with a phone number under SMS autoconfirm answers a session", async () => {
    const phone = uniquePhone();
    const { data, error } = await client(auto).signUp({ phone: `+${phone}`, password: "secret-pw" });
    expect(error).toBeNull();
    expect(data.user).toMatchObject({ phone, email: "", app_metadata: { provider: "phone" } });
    expect(data.session?.access_token).toBeTruthy();
  });

  it("rejects a weak password with 422 weak_password and its reasons", async () => {
    const { error } = await client(auto).signUp({ email: uniqueEmail("weak"), password: "123" });
    expect(error).toMatchObject({ status: 422, code: "weak_password", reasons: ["length"] });
  });
});

describe("password sign-in and sessions", () => {
  async function signedUp() {
    const email = uniqueEmail("session");
    await client(auto).signUp({ email, password: "secret-pw" });
    return email;
  }

  it("signs in, and a wrong password and an unknown user get the same 400 invalid_credentials", async () => {
    const email = await signedUp();
    const ok = await client(auto).signInWithPassword({ email, password: "secret-pw" });
    expect(ok.error).toBeNull();
    expect(typeof ok.data.user?.last_sign_in_at).toBe("string");
    const wrong = await client(auto).signInWithPassword({ email, password: "wrong-pw" });
    const unknown = await client(auto).signInWithPassword({
      email: uniqueEmail("nobody"),
      password: "secret-pw",
    });
    for (const { error } of [wrong, unknown]) {
      expect(error).toMatchObject({
        status: 400,
        code: "invalid_credentials",
        message: "Invalid login credentials",
      });
    }
  });

  it("refreshSession rotates the refresh token; getUser and updateUser work with the access token", async () => {
    const email = await signedUp();
    const c = client(auto);
    const { data } = await c.signInWithPassword({ email, password: "secret-pw" });
    const refreshed = await c.refreshSession({ refresh_token: data.session?.refresh_token ?? "" });
    expect(refreshed.error).toBeNull();
    expect(refreshed.data.session?.token_type).toBe("bearer");
    expect(refreshed.data.session?.refresh_token).not.toBe(data.session?.refresh_token);

    const jwt = refreshed.data.session?.access_token ?? "";
    const got = await c.getUser(jwt);
    expect(got.data.user?.email).toBe(email);

    await c.setSession({ access_token: jwt, refresh_token: refreshed.data.session?.refresh_token ?? "" });
    const first = await c.updateUser({ data: { color: "red", size: 2 } });
    expect(first.data.user?.user_metadata).toEqual({ color: "red", size: 2 });
    const second = await c.updateUser({ data: { color: null, shape: "round" } } as never);
    expect(second.data.user?.user_metadata).toEqual({ size: 2, shape: "round" });
  });

  it("a password change ends the user's other sessions", async () => {
    const email = await signedUp();
    const a = client(auto);
    const b = client(auto);
    await a.signInWithPassword({ email, password: "secret-pw" });
    const other = await b.signInWithPassword({ email, password: "secret-pw" });
    const changed = await a.updateUser({ password: "new-secret-pw" });
    expect(changed.error).toBeNull();
    const stale = await b.refreshSession({ refresh_token: other.data.session?.refresh_token ?? "" });
    expect(stale.error).toMatchObject({ status: 400, code: "refresh_token_not_found" });
    const oldJwt = await client(auto).getUser(other.data.session?.access_token ?? "");
    expect(oldJwt.error?.message).toBe("Auth session missing!");
    expect((await client(auto).signInWithPassword({ email, password: "new-secret-pw" })).error).toBeNull();
  });

  it.each(["local", "others", "global"] as const)(
    "signOut scope %s revokes the right sessions",
    async (scope) => {
      const email = await signedUp();
      const me = client(auto);
      const mine = await me.signInWithPassword({ email, password: "secret-pw" });
      const theirs = await client(auto).signInWithPassword({ email, password: "secret-pw" });
      const { error } = await adminApi(auto).signOut(mine.data.session?.access_token ?? "", scope);
      expect(error).toBeNull();
      const refresh = async (token: string | undefined) =>
        (await client(auto).refreshSession({ refresh_token: token ?? "" })).error?.code ?? "ok";
      const expected = {
        local: ["refresh_token_not_found", "ok"],
        others: ["ok", "refresh_token_not_found"],
        global: ["refresh_token_not_found", "refresh_token_not_found"],
      }[scope];
      expect([
        await refresh(mine.data.session?.refresh_token),
        await refresh(theirs.data.session?.refresh_token),
      ]).toEqual(expected);
    },
  );
});

describe("anonymous users", () => {
  it("signInAnonymously gives an anonymous session that becomes permanent with an email and password", async () => {
    const c = client(auto);
    const { data, error } = await c.signInAnonymously({ options: { data: { theme: "dark" } } });
    expect(error).toBeNull();
    expect(data.user?.is_anonymous).toBe(true);
    expect(data.user?.user_metadata).toEqual({ theme: "dark" });
    expect(decodeJwt(data.session?.access_token ?? "")).toMatchObject({ is_anonymous: true });
    const email = uniqueEmail("anon");
    const upgraded = await c.updateUser({ email, password: "secret-pw" });
    expect(upgraded.error).toBeNull();
    expect(upgraded.data.user).toMatchObject({ email, is_anonymous: false });
    expect((await client(auto).signInWithPassword({ email, password: "secret-pw" })).error).toBeNull();
  });

  it("is refused when anonymous sign-ins are disabled", async () => {
    const { error } = await client(confirming).signInAnonymously();
    expect(error).toMatchObject({ status: 422, code: "anonymous_provider_disabled" });
  });
});

describe("administration", () => {
  it("create, list, get, update, ban, unban and delete", async () => {
    const admin = adminApi(auto);
    const email = uniqueEmail("admin");
    const created = await admin.createUser({
      email,
      password: "secret-pw",
      email_confirm: true,
      user_metadata: { a: 1 },
    });
    expect(created.error).toBeNull();
    const id = created.data.user?.id ?? "";
    expect(created.data.user?.user_metadata).toEqual({ a: 1 });

    const listed = await admin.listUsers();
    expect(listed.data.users.map((u) => u.id)).toContain(id);
    expect(listed.data.users[0]?.id).toBe(id);

    expect((await admin.getUserById(id)).data.user?.email).toBe(email);
    const updated = await admin.updateUserById(id, { user_metadata: { favorite_color: "yellow" } });
    expect(updated.data.user?.user_metadata).toEqual({ a: 1, favorite_color: "yellow" });

    const session = await client(auto).signInWithPassword({ email, password: "secret-pw" });
    const banned = await admin.updateUserById(id, { ban_duration: "1h30m" });
    expect(typeof banned.data.user?.banned_until).toBe("string");
    expect((await client(auto).signInWithPassword({ email, password: "secret-pw" })).error).toMatchObject({
      status: 400,
      code: "user_banned",
    });
    const refresh = await client(auto).refreshSession({
      refresh_token: session.data.session?.refresh_token ?? "",
    });
    expect(refresh.error).not.toBeNull();
    expect((await admin.updateUserById(id, { ban_duration: "soon" })).error).toMatchObject({ status: 400 });

    await admin.updateUserById(id, { ban_duration: "none" });
    expect((await client(auto).signInWithPassword({ email, password: "secret-pw" })).error).toBeNull();

    expect((await admin.deleteUser(id)).error).toBeNull();
    expect((await admin.getUserById(id)).error).toMatchObject({ status: 404 });
  });

  it("listUsers pages with x-total-count and a link header the client understands", async () => {
    const admin = adminApi(auto);
    await admin.createUser({ email: uniqueEmail("page1"), password: "secret-pw" });
    await admin.createUser({ email: uniqueEmail("page2"), password: "secret-pw" });
    const page = await admin.listUsers({ page: 1, perPage: 1 });
    expect(page.data.users).toHaveLength(1);
    expect(page.data).toMatchObject({ nextPage: 2, total: expect.any(Number) });
    expect((page.data as { total: number }).total).toBeGreaterThanOrEqual(2);
  });

  it("rejects a non-admin token with 403 not_admin and no token with 401", async () => {
    const anon = new GoTrueAdminApi({
      url: auto.url,
      headers: { Authorization: `Bearer ${await roleKey("anon")}` },
    });
    expect((await anon.listUsers()).error).toMatchObject({ status: 403, code: "not_admin" });
    const none = await fetch(`${auto.url}/admin/users`);
    expect(none.status).toBe(401);
  });

  it("inviteUserByEmail creates an invited user and mails the invitation", async () => {
    const email = uniqueEmail("invite");
    const { data, error } = await adminApi(confirming).inviteUserByEmail(email, { data: { team: "blue" } });
    expect(error).toBeNull();
    expect(typeof data.user?.invited_at).toBe("string");
    expect(data.user?.user_metadata).toEqual({ team: "blue" });
    expect((await sink.next(email)).subject).toBe("You have been invited");
  });
});
