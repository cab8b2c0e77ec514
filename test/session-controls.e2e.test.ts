import { createHash } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as elapse } from "node:timers/promises";
import { type FreshNamespace, migratedNamespace } from "@authsvc/adapters/testing";
import { productionServerEnv, roleKey } from "@authsvc/http/testing";
import { GoTrueAdminApi, GoTrueClient } from "@supabase/auth-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ServerProcess, startServer } from "./support/server-process.js";

/**
 * Session controls, the user's own sessions, admin soft delete and the audit log, through the official
 * client against real server processes: `limited` with a 6 s timebox and a 3 s inactivity timeout,
 * `single` with one session per user. The limits run on the server's wall clock, so the tests let
 * that time pass (`elapse`): there is no event to wait for instead.
 */
let limited: ServerProcess;
let single: ServerProcess;
let ns: FreshNamespace;
let serviceKey: string;
const cwd = mkdtempSync(join(tmpdir(), "authsvc-sessctl-"));

beforeAll(async () => {
  ns = await migratedNamespace();
  serviceKey = await roleKey("service_role");
  const env = productionServerEnv(ns, { AUTHSVC_MAILER_AUTOCONFIRM: "true" });
  [limited, single] = await Promise.all([
    startServer(
      { ...env, AUTHSVC_SESSIONS_TIMEBOX: "6s", AUTHSVC_SESSIONS_INACTIVITY_TIMEOUT: "3s" },
      { cwd },
    ),
    startServer({ ...env, AUTHSVC_SESSIONS_SINGLE_PER_USER: "true" }, { cwd }),
  ]);
}, 60_000);

afterAll(async () => {
  await Promise.all([limited?.stop(), single?.stop()]);
  await ns?.drop();
  rmSync(cwd, { recursive: true, force: true });
});

const client = (server: ServerProcess) =>
  new GoTrueClient({ url: server.url, autoRefreshToken: false, persistSession: false });
const adminApi = (server: ServerProcess) =>
  new GoTrueAdminApi({ url: server.url, headers: { Authorization: `Bearer ${serviceKey}` } });

let counter = 0;
const uniqueEmail = (tag: string) => `${tag}-${Date.now()}-${++counter}@example.com`;

/** A new user signed up (autoconfirmed) on `server`; answers its email and first session. */
async function signedUp(server: ServerProcess) {
  const email = uniqueEmail("sc");
  const { data, error } = await client(server).signUp({ email, password: "secret-pw" });
  expect(error).toBeNull();
  if (!data.session || !data.user) throw new Error("no session");
  return { email, user: data.user, session: data.session };
}

async function signIn(server: ServerProcess, email: string) {
  const { data, error } = await client(server).signInWithPassword({ email, password: "secret-pw" });
  expect(error).toBeNull();
  if (!data.session) throw new Error("no session");
  return data.session;
}

async function refresh(server: ServerProcess, refreshToken: string) {
  const { data, error } = await client(server).refreshSession({ refresh_token: refreshToken });
  return { session: data.session, error };
}

describe("session limits through auth-js", () => {
  it("refuses the refresh of a session left idle past the inactivity timeout", async () => {
    const { session } = await signedUp(limited);
    const first = await refresh(limited, session.refresh_token);
    expect(first.error).toBeNull();
    await elapse(3300);
    const late = await refresh(limited, first.session?.refresh_token ?? "");
    expect(late.session).toBeNull();
    expect(late.error).toMatchObject({
      status: 400,
      code: "session_expired",
      message: "Invalid Refresh Token: Session Expired (Inactivity)",
    });
  });

  it("refuses the refresh of a session past its timebox, however active", async () => {
    const { session } = await signedUp(limited);
    // Counted from the sign-up's answer, so the session is at least as old as this clock says
    // however long the sign-up took.
    const started = Date.now();
    let token = session.refresh_token;
    // Refreshed every 2 s (under the 3 s inactivity timeout) until the 6 s timebox is over.
    for (const at of [2000, 4000]) {
      await elapse(started + at - Date.now());
      const next = await refresh(limited, token);
      expect(next.error).toBeNull();
      token = next.session?.refresh_token ?? "";
    }
    await elapse(started + 6300 - Date.now());
    const late = await refresh(limited, token);
    expect(late.error).toMatchObject({
      status: 400,
      code: "session_expired",
      message: "Invalid Refresh Token: Session Expired",
    });
  });
});

describe("a single session per user through auth-js", () => {
  it("refuses the older session's refresh once the user signed in again; the newer one refreshes", async () => {
    const { email, session: older } = await signedUp(single);
    const newer = await signIn(single, email);
    const refused = await refresh(single, older.refresh_token);
    expect(refused.error).toMatchObject({
      status: 400,
      code: "session_expired",
      message: "Invalid Refresh Token: Session Expired (Revoked by Newer Login)",
    });
    const renewed = await refresh(single, newer.refresh_token);
    expect(renewed.error).toBeNull();
    expect(renewed.session?.user.email).toBe(email);
  });
});

describe("the user's own sessions", () => {
  const get = (server: ServerProcess, path: string, accessToken: string, method = "GET") =>
    fetch(`${server.url}${path}`, { method, headers: { authorization: `Bearer ${accessToken}` } });

  it("lists them without tokens and ends one, whose refresh token then fails in auth-js", async () => {
    const { email, session: laptop } = await signedUp(limited);
    const phone = await signIn(limited, email);
    const listed = await get(limited, "/user/sessions", phone.access_token);
    const text = await listed.text();
    expect(text).not.toContain(laptop.refresh_token);
    const { sessions } = JSON.parse(text) as {
      sessions: { id: string; current: boolean; not_after: string }[];
    };
    expect(sessions.map((s) => s.current)).toEqual([false, true]);
    expect(sessions[0]?.not_after).toEqual(expect.any(String));
    const ended = await get(limited, `/user/sessions/${sessions[0]?.id}`, phone.access_token, "DELETE");
    expect(ended.status).toBe(200);
    expect((await refresh(limited, laptop.refresh_token)).error).toMatchObject({ status: 400 });
    // auth-js reports the ended session as AuthSessionMissingError; the server answered 403.
    expect((await client(limited).getUser(laptop.access_token)).error?.name).toBe("AuthSessionMissingError");
    expect((await get(limited, "/user", laptop.access_token)).status).toBe(403);
    expect((await client(limited).getUser(phone.access_token)).error).toBeNull();
  });
});

describe("admin soft delete through auth-js", () => {
  it("deleteUser(id, true) keeps the user obfuscated as the reference; sign-in is then refused", async () => {
    const { email, user, session } = await signedUp(single);
    const admin = adminApi(single);
    const { error } = await admin.deleteUser(user.id, true);
    expect(error).toBeNull();

    const { data } = await admin.getUserById(user.id);
    const hashed = (value: string) => createHash("sha256").update(`${user.id}${value}`).digest("base64url");
    expect(data.user).toMatchObject({
      id: user.id,
      email: hashed(email),
      phone: hashed("").slice(0, 15),
      user_metadata: {},
      app_metadata: {},
    });
    expect((data.user as unknown as { deleted_at?: string }).deleted_at).toEqual(expect.any(String));
    expect(data.user?.identities?.map((i) => [i.provider, i.id, i.identity_data])).toEqual([
      ["email", hashed(`email:${user.id}`), {}],
    ]);

    const signInAgain = await client(single).signInWithPassword({ email, password: "secret-pw" });
    expect(signInAgain.error).toMatchObject({ status: 400, code: "invalid_credentials" });
    expect((await refresh(single, session.refresh_token)).error).toMatchObject({ status: 400 });
    // The address is free again: a new account can take it.
    const again = await client(single).signUp({ email, password: "secret-pw" });
    expect(again.error).toBeNull();
    expect(again.data.user?.id).not.toBe(user.id);
  });
});

describe("GET /admin/audit", () => {
  const audit = async (query: string) => {
    const res = await fetch(`${single.url}/admin/audit?${query}`, {
      headers: { authorization: `Bearer ${serviceKey}` },
    });
    return {
      status: res.status,
      total: res.headers.get("x-total-count"),
      link: res.headers.get("link"),
      body: (await res.json()) as { id: string; payload: Record<string, unknown>; created_at: string }[],
    };
  };

  it("pages one author's entries newest first, with X-Total-Count and a Link that keeps the query", async () => {
    const { email } = await signedUp(single);
    await signIn(single, email);
    await signIn(single, email);
    const query = `query=${encodeURIComponent(`author:${email}`)}`;
    const all = await audit(query);
    expect(all.status).toBe(200);
    const actions = all.body.map((e) => e.payload.action);
    expect(actions.slice(0, 2)).toEqual(["login", "login"]);
    expect(actions).toContain("user_signedup");
    expect(all.total).toBe(String(all.body.length));
    const times = all.body.map((e) => Date.parse(e.created_at));
    expect([...times].sort((a, b) => b - a)).toEqual(times);

    const first = await audit(`page=1&per_page=1&${query}`);
    expect(first.body.map((e) => e.id)).toEqual([all.body[0]?.id]);
    expect(first.link).toBe(
      `</admin/audit?page=2&per_page=1&${query}>; rel="next", </admin/audit?page=${all.body.length}&per_page=1&${query}>; rel="last"`,
    );
    const second = await audit(`page=2&per_page=1&${query}`);
    expect(second.body.map((e) => e.id)).toEqual([all.body[1]?.id]);
    expect((await audit("query=nobody:x")).status).toBe(400);
  });
});
