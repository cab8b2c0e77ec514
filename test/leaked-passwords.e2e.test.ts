import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  type FreshNamespace,
  type HibpRangeFake,
  migratedNamespace,
  sha1Hex,
  startHibpRangeFake,
} from "@authsvc/adapters/testing";
import { productionServerEnv, roleKey } from "@authsvc/http/testing";
import { AuthWeakPasswordError, GoTrueAdminApi, GoTrueClient } from "@supabase/auth-js";
import bcrypt from "bcryptjs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ServerProcess, startServer } from "./support/server-process.js";

/**
 * The leaked-password check on the built server, against a loopback fake of the range API that
 * records every request it gets: what leaves the server is only `/range/<five hex digits>`.
 */
const LEAKED = ["password123", "Tr0ub4dor&3", "qwerty-uiop-2024", "12345"];
const PWNED = "Password is known to be weak and easy to guess, please choose a different one.";
const cwd = mkdtempSync(join(tmpdir(), "authsvc-hibp-"));
const servers: ServerProcess[] = [];
let fake: HibpRangeFake;
let ns: FreshNamespace;
let serviceKey: string;
let unique = 0;
const email = (tag: string) => `${tag}-${++unique}-${Date.now()}@example.com`;

async function start(extra: Record<string, string>): Promise<ServerProcess> {
  const server = await startServer(
    productionServerEnv(ns, { AUTHSVC_MAILER_AUTOCONFIRM: "true", ...extra }),
    { cwd },
  );
  servers.push(server);
  return server;
}

const client = (server: ServerProcess) =>
  new GoTrueClient({ url: server.url, autoRefreshToken: false, persistSession: false });
const adminOf = (server: ServerProcess) =>
  new GoTrueAdminApi({
    url: server.url,
    headers: { Authorization: `Bearer ${serviceKey}`, apikey: serviceKey },
  });

let open: ServerProcess;
let closed: ServerProcess;
let off: ServerProcess;

beforeAll(async () => {
  fake = await startHibpRangeFake(LEAKED);
  ns = await migratedNamespace();
  serviceKey = await roleKey("service_role");
  [open, closed, off] = await Promise.all([
    start({ AUTHSVC_PASSWORD_HIBP_ENABLED: "true", AUTHSVC_PASSWORD_HIBP_URL: fake.url }),
    // Nothing listens on port 1: the range API is down for this one.
    start({
      AUTHSVC_PASSWORD_HIBP_ENABLED: "true",
      AUTHSVC_PASSWORD_HIBP_FAIL_CLOSED: "true",
      AUTHSVC_PASSWORD_HIBP_URL: "http://127.0.0.1:1",
    }),
    start({ AUTHSVC_PASSWORD_HIBP_URL: fake.url }),
  ]);
});

afterAll(async () => {
  for (const server of servers) await server.stop();
  await fake.close();
  await ns.drop();
  rmSync(cwd, { recursive: true, force: true });
});

/** Every request the fake got asked for one range by its path alone, naming no password nor hash. */
function expectOnlyRanges(): void {
  expect(fake.requests.length).toBeGreaterThan(0);
  for (const request of fake.requests) {
    expect(request.method).toBe("GET");
    expect(request.path).toMatch(/^\/range\/[0-9A-F]{5}$/);
    expect(request.headers["add-padding"]).toBe("true");
    expect(request.headers["user-agent"]).toBe("authsvc");
    expect(request.body).toBe("");
    const seen = JSON.stringify(request);
    for (const password of [...LEAKED, "clean long passphrase 81f2"]) {
      expect(seen).not.toContain(password);
      expect(seen.toUpperCase()).not.toContain(sha1Hex(password).slice(5, 12));
    }
  }
}

describe("leaked-password check on", () => {
  it("refuses a leaked password at sign-up with weak_password and reason pwned; a clean one passes", async () => {
    const before = fake.requests.length;
    const refused = await client(open).signUp({ email: email("leak"), password: "password123" });
    expect(refused.error).toBeInstanceOf(AuthWeakPasswordError);
    expect(refused.error).toMatchObject({ status: 422, code: "weak_password", message: PWNED });
    expect((refused.error as AuthWeakPasswordError).reasons).toEqual(["pwned"]);
    expect(fake.requests.slice(before).map((r) => r.path)).toEqual([
      `/range/${sha1Hex("password123").slice(0, 5)}`,
    ]);
    const accepted = await client(open).signUp({
      email: email("clean"),
      password: "clean long passphrase 81f2",
    });
    expect(accepted.error).toBeNull();
    expect(accepted.data.session?.access_token).toBeTruthy();
    expectOnlyRanges();
  });

  it("gathers the policy's reasons and pwned, as the reference", async () => {
    const res = await fetch(`${open.url}/signup`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: email("both"), password: "12345" }),
    });
    expect(res.status).toBe(422);
    expect(await res.json()).toMatchObject({
      error_code: "weak_password",
      msg: `Password should be at least 6 characters. ${PWNED}`,
      weak_password: { reasons: ["length", "pwned"] },
    });
  });

  it("refuses a leaked password on PUT /user, admin create and update, and generate_link", async () => {
    const auth = client(open);
    const signedUp = await auth.signUp({ email: email("change"), password: "clean long passphrase 81f2" });
    expect(signedUp.error).toBeNull();
    const changed = await auth.updateUser({ password: "Tr0ub4dor&3" });
    expect(changed.error).toMatchObject({ status: 422, code: "weak_password" });
    expect((changed.error as AuthWeakPasswordError).reasons).toEqual(["pwned"]);
    expect((await auth.updateUser({ password: "another clean phrase 77" })).error).toBeNull();

    const admin = adminOf(open);
    const created = await admin.createUser({
      email: email("admin"),
      password: "qwerty-uiop-2024",
      email_confirm: true,
    });
    expect(created.error).toMatchObject({ status: 422, code: "weak_password" });
    const made = await admin.createUser({ email: email("admin"), password: "clean long passphrase 81f2" });
    expect(made.error).toBeNull();
    const updated = await admin.updateUserById(made.data.user?.id ?? "", { password: "password123" });
    expect(updated.error).toMatchObject({ status: 422, code: "weak_password" });
    const link = await admin.generateLink({ type: "signup", email: email("link"), password: "password123" });
    expect(link.error).toMatchObject({ status: 422, code: "weak_password" });
    expectOnlyRanges();
  });

  it("asks once per range while it is cached", async () => {
    const before = fake.requests.length;
    for (let i = 0; i < 3; i++) {
      const refused = await client(open).signUp({ email: email("cached"), password: "Tr0ub4dor&3" });
      expect(refused.error).toMatchObject({ code: "weak_password" });
    }
    // Asked at most once more (the range may still be cached from an earlier test).
    expect(fake.requests.length - before).toBeLessThanOrEqual(1);
  });

  it("coalesces concurrent checks of one range into one request", async () => {
    const password = "coalesced clean phrase 5150";
    const before = fake.requests.length;
    fake.hold();
    const signUps = Array.from({ length: 10 }, () =>
      client(open).signUp({ email: email("burst"), password }),
    );
    await new Promise((r) => setTimeout(r, 500));
    fake.release();
    const results = await Promise.all(signUps);
    for (const r of results) expect(r.error).toBeNull();
    expect(fake.requests.slice(before).map((r) => r.path)).toEqual([
      `/range/${sha1Hex(password).slice(0, 5)}`,
    ]);
  });

  it("a correct leaked password signs in, and the answer carries weak_password (data.weakPassword)", async () => {
    const address = email("weak-signin");
    const imported = await adminOf(open).createUser({
      email: address,
      password_hash: await bcrypt.hash("password123", 4),
      email_confirm: true,
    } as Parameters<GoTrueAdminApi["createUser"]>[0]);
    expect(imported.error).toBeNull();
    const signedIn = await client(open).signInWithPassword({ email: address, password: "password123" });
    expect(signedIn.error).toBeNull();
    expect(signedIn.data.session?.access_token).toBeTruthy();
    expect(signedIn.data.weakPassword).toEqual({ reasons: ["pwned"], message: PWNED });
    const wrong = await client(open).signInWithPassword({ email: address, password: "password124" });
    expect(wrong.error).toMatchObject({ code: "invalid_credentials" });
    const strong = await client(open).signInWithPassword({
      email: (await client(open).signUp({ email: email("strong"), password: "clean long passphrase 81f2" }))
        .data.user?.email as string,
      password: "clean long passphrase 81f2",
    });
    expect(strong.error).toBeNull();
    expect(strong.data.weakPassword).toBeUndefined();
  });

  it("fails open when the range API is down: the password is allowed and a warning logged", async () => {
    fake.mode = "fail";
    try {
      const address = email("down");
      const accepted = await client(open).signUp({ email: address, password: "qwerty-uiop-2024 but new" });
      expect(accepted.error).toBeNull();
      const warning = open.lines().find((l) => String(l.msg).includes("leaked-password check unavailable"));
      expect(warning).toMatchObject({ level: "warn" });
      expect(String(warning?.msg)).toMatch(/HTTP 503.*allowed/);
      expect(JSON.stringify(open.lines())).not.toContain("qwerty-uiop-2024 but new");
      expect(JSON.stringify(open.lines()).toUpperCase()).not.toContain(sha1Hex("qwerty-uiop-2024 but new"));
    } finally {
      fake.mode = "answer";
    }
  });
});

describe("leaked-password check failing closed", () => {
  it("refuses a new password with the reference's 500 while the range API is down", async () => {
    const res = await fetch(`${closed.url}/signup`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: email("closed"), password: "clean long passphrase 81f2" }),
    });
    expect(res.status).toBe(500);
    expect(await res.json()).toMatchObject({
      code: 500,
      error_code: "unexpected_failure",
      msg: "Unable to perform password strength check with HaveIBeenPwned.org.",
    });
    expect(closed.lines().some((l) => String(l.msg).includes("the password is refused"))).toBe(true);
  });

  it("still signs a correct password in, without weak_password", async () => {
    const address = email("closed-signin");
    const imported = await adminOf(closed).createUser({
      email: address,
      password_hash: await bcrypt.hash("clean long passphrase 81f2", 4),
      email_confirm: true,
    } as Parameters<GoTrueAdminApi["createUser"]>[0]);
    expect(imported.error).toBeNull();
    const signedIn = await client(closed).signInWithPassword({
      email: address,
      password: "clean long passphrase 81f2",
    });
    expect(signedIn.error).toBeNull();
    expect(signedIn.data.weakPassword).toBeUndefined();
  });
});

describe("leaked-password check off", () => {
  it("fetches nothing and lets a leaked password through", async () => {
    const before = fake.requests.length;
    const accepted = await client(off).signUp({ email: email("off"), password: "password123" });
    expect(accepted.error).toBeNull();
    const signedIn = await client(off).signInWithPassword({
      email: accepted.data.user?.email as string,
      password: "password123",
    });
    expect(signedIn.error).toBeNull();
    expect(signedIn.data.weakPassword).toBeUndefined();
    expect(fake.requests.length).toBe(before);
  });
});
