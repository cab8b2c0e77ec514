import { createHmac } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type FreshNamespace, migratedNamespace } from "@authsvc/adapters/testing";
import { productionServerEnv, roleKey } from "@authsvc/http/testing";
import { GoTrueAdminApi, GoTrueClient } from "@supabase/auth-js";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chromiumPresent, type HeadlessChromium, headlessChromium } from "./support/chromium.js";
import { freePort } from "./support/free-port.js";
import { populate } from "./support/population.js";
import { type ServerProcess, startServer } from "./support/server-process.js";

/**
 * The admin console in headless Chromium, on PostgreSQL with 10,000 users: an administrator signs in
 * with password and TOTP using the keyboard alone, finds a user, bans and unbans them and ends their
 * sessions (each checked over HTTP as the user would meet it: a refused sign-in, a refused refresh),
 * and the console refuses a non-administrator and a form without its CSRF value. axe-core checks each
 * page, the pages' Content-Security-Policy must report nothing, and each page is photographed into
 * test-results/admin-console/ (docs/admin-console.md shows the users page).
 */
const SHOTS = fileURLToPath(new URL("../test-results/admin-console/", import.meta.url));
const PASSWORD = "a-long-enough-password-1";
const POPULATION = 10_000;
const cwd = mkdtempSync(join(tmpdir(), "authsvc-admin-console-"));

let ns: FreshNamespace | undefined;
let server: ServerProcess | undefined;
let chromium: HeadlessChromium | undefined;
let base = "";
let admin: GoTrueAdminApi;
const adminEmail = `console-admin-${Date.now()}@example.com`;
const targetEmail = `console-target-${Date.now()}@example.com`;
let targetId = "";
let totpSecret = "";

/** RFC 6238's code of `secret` (base32) for the 30-second step `step`. */
function totp(secret: string, step: number): string {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  let bits = "";
  for (const ch of secret.replace(/=+$/, "").toUpperCase())
    bits += alphabet.indexOf(ch).toString(2).padStart(5, "0");
  const key = Buffer.from((bits.match(/.{8}/g) ?? []).map((b) => Number.parseInt(b, 2)));
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(step));
  const mac = createHmac("sha1", key).update(counter).digest();
  const offset = (mac[mac.length - 1] as number) & 0xf;
  const value = (mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000;
  return String(value).padStart(6, "0");
}

const client = () =>
  new GoTrueClient({
    url: base,
    autoRefreshToken: false,
    persistSession: false,
    storageKey: `c-${Math.random()}`,
  });

/** A password sign-in of the target over HTTP: its refresh token and session id, or the error's code. */
type SignIn = { readonly error: string } | { readonly refreshToken: string; readonly sessionId: string };

async function signInTarget(): Promise<SignIn> {
  const { data, error } = await client().signInWithPassword({ email: targetEmail, password: PASSWORD });
  if (error) return { error: error.code ?? error.message };
  const token = data.session?.access_token ?? "";
  const claims = JSON.parse(Buffer.from(token.split(".")[1] ?? "", "base64url").toString()) as {
    session_id: string;
  };
  return { refreshToken: data.session?.refresh_token ?? "", sessionId: claims.session_id };
}

/** Whether a refresh token still refreshes, over HTTP (`POST /token?grant_type=refresh_token`). */
async function refreshes(refreshToken: string): Promise<boolean> {
  const response = await fetch(`${base}/token?grant_type=refresh_token`, {
    method: "POST",
    headers: { "content-type": "application/json", apikey: await roleKey("anon") },
    body: JSON.stringify({ refresh_token: refreshToken }),
  });
  return response.status === 200;
}

/** Presses Tab until `selector` has the focus: the page must be usable without a mouse. */
async function tabTo(page: Page, selector: string) {
  for (let i = 0; i < 40; i++) {
    if (await page.evaluate(`document.activeElement?.matches(${JSON.stringify(selector)}) ?? false`)) return;
    await page.keyboard.press("Tab");
  }
  throw new Error(`Tab never reached ${selector}`);
}

async function check(page: Page, name: string) {
  await chromium?.accessible(page, name);
  await page.screenshot({ path: join(SHOTS, `${name}.png`) });
}

let page: Page;

beforeAll(async () => {
  if (!chromiumPresent) return;
  mkdirSync(SHOTS, { recursive: true });
  ns = await migratedNamespace();
  await populate(ns.url, { count: POPULATION, namespace: ns.namespace, tokensPerSession: 1 });
  const port = await freePort();
  base = `http://localhost:${port}`;
  server = await startServer(
    productionServerEnv(ns, {
      PORT: String(port),
      AUTHSVC_API_EXTERNAL_URL: base,
      AUTHSVC_MAILER_AUTOCONFIRM: "true",
      AUTHSVC_ADMIN_CONSOLE_ENABLED: "true",
      AUTHSVC_ADMIN_CONSOLE_ADMINS: `${adminEmail.toUpperCase()},role:console_admin`,
    }),
    { cwd },
  );
  admin = new GoTrueAdminApi({
    url: base,
    headers: { Authorization: `Bearer ${await roleKey("service_role")}` },
  });
  for (const email of [adminEmail, targetEmail]) {
    const { data, error } = await admin.createUser({ email, password: PASSWORD, email_confirm: true });
    if (error) throw error;
    if (email === targetEmail) targetId = data.user?.id ?? "";
  }
  // The administrator enrols an authenticator app through the API (auth-js), as an account page does.
  const own = client();
  expect((await own.signInWithPassword({ email: adminEmail, password: PASSWORD })).error).toBeNull();
  const enrolled = await own.mfa.enroll({ factorType: "totp" });
  if (enrolled.error) throw enrolled.error;
  const { id: factorId, totp: secret } = enrolled.data as { id: string; totp: { secret: string } };
  totpSecret = secret.secret;
  const code = totp(totpSecret, Math.floor(Date.now() / 30_000));
  expect((await own.mfa.challengeAndVerify({ factorId, code })).error).toBeNull();
  chromium = await headlessChromium();
  page = await chromium.newPage();
}, 300_000);

afterAll(async () => {
  await chromium?.close();
  await server?.stop();
  await ns?.drop();
  rmSync(cwd, { recursive: true, force: true });
});

describe.skipIf(!chromiumPresent)("the admin console in headless Chromium (PostgreSQL, 10,000 users)", () => {
  it("signs an administrator in with password then TOTP, by keyboard alone", async () => {
    await page.goto(`${base}/admin/console`);
    expect(new URL(page.url()).pathname).toBe("/admin/console/sign-in");
    await check(page, "sign-in");
    // A wrong password: the same answer as an address nobody has.
    await page.keyboard.type(adminEmail);
    await page.keyboard.press("Tab");
    await page.keyboard.type("not-the-password");
    await Promise.all([page.waitForNavigation(), page.keyboard.press("Enter")]);
    const wrong = await page.textContent("#problem");
    await page.fill("#email", "nobody-at-all@example.com");
    await page.fill("#password", PASSWORD);
    await Promise.all([page.waitForNavigation(), page.press("#password", "Enter")]);
    expect(await page.textContent("#problem")).toBe(wrong);

    await page.fill("#email", adminEmail);
    await page.fill("#password", PASSWORD);
    await Promise.all([page.waitForNavigation(), page.press("#password", "Enter")]);
    expect(new URL(page.url()).pathname).toBe("/admin/console/mfa");
    await check(page, "mfa");
    // Nothing but the code's page before the second factor.
    await page.goto(`${base}/admin/console/users`);
    expect(new URL(page.url()).pathname).toBe("/admin/console/mfa");
    await page.keyboard.type(totp(totpSecret, Math.floor(Date.now() / 30_000) + 1));
    await Promise.all([page.waitForNavigation(), page.keyboard.press("Enter")]);
    expect(new URL(page.url()).pathname).toBe("/admin/console/users");

    const cookie = (await chromium?.context.cookies(`${base}/admin/console/users`))?.find(
      (c) => c.name === "authsvc-admin-console",
    );
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: "Strict", path: "/admin/console" });
    expect(await page.textContent("caption")).toContain(`${POPULATION + 2} users`);
    await check(page, "users");
    expect(chromium?.violations).toEqual([]);
  });

  it("finds a user among 10,000 by email and by id, and pages through the list", async () => {
    await tabTo(page, "#q");
    await page.keyboard.type("population-4321@example.com");
    await Promise.all([page.waitForNavigation(), page.keyboard.press("Enter")]);
    const found = await page.$$eval("tbody tr a", (links) => links.map((a) => a.textContent));
    expect(found).toEqual(["population-4321@example.com"]);

    await page.goto(`${base}/admin/console/users?q=${targetId}`);
    expect(await page.$$eval("tbody tr a", (links) => links.map((a) => a.textContent))).toEqual([
      targetEmail,
    ]);

    await page.goto(`${base}/admin/console/users`);
    await tabTo(page, "a[rel=next]");
    await Promise.all([page.waitForNavigation(), page.keyboard.press("Enter")]);
    expect(await page.textContent("nav.pages span")).toBe(`Page 2 of ${Math.ceil((POPULATION + 2) / 50)}`);
    expect(await page.locator("tbody tr").count()).toBe(50);
  });

  it("bans a user for a day and lifts the ban: the user's sign-in and refresh are refused meanwhile", async () => {
    const before = await signInTarget();
    if (!("refreshToken" in before)) throw new Error(String(before.error));
    await page.goto(`${base}/admin/console/users?q=${encodeURIComponent(targetEmail)}`);
    await tabTo(page, "tbody a");
    await Promise.all([page.waitForNavigation(), page.keyboard.press("Enter")]);
    expect(new URL(page.url()).pathname).toBe(`/admin/console/users/${targetId}`);
    await check(page, "user");

    await page.selectOption("#duration", "24h");
    await Promise.all([page.waitForNavigation(), page.click("button:text-is('Ban')")]);
    expect(await page.textContent("#ban-state")).toContain("Banned until");
    expect(await signInTarget()).toEqual({ error: "user_banned" });
    expect(await refreshes(before.refreshToken)).toBe(false);

    await Promise.all([page.waitForNavigation(), page.click("button:text-is('Lift the ban')")]);
    expect(await page.textContent("#ban-state")).toBe("Not banned.");
    expect("refreshToken" in (await signInTarget())).toBe(true);

    // Audited with the administrator's identity and address.
    const audit = await fetch(`${base}/admin/audit?query=action:user_modified`, {
      headers: { authorization: `Bearer ${await roleKey("service_role")}` },
    });
    const entries = (await audit.json()) as {
      payload: { actor_id: string; actor_username: string };
      ip_address: string;
    }[];
    const mine = entries.filter((e) => e.payload.actor_username === adminEmail);
    expect(mine.length).toBe(2);
    expect(mine[0]?.ip_address).toMatch(/^(127\.0\.0\.1|::1|::ffff:127\.0\.0\.1)$/);
  });

  it("ends one session, then all: each refresh token is refused over HTTP from then on", async () => {
    const a = await signInTarget();
    const b = await signInTarget();
    if (!("refreshToken" in a) || !("refreshToken" in b)) throw new Error("sign-in refused");
    await page.goto(`${base}/admin/console/users/${targetId}`);
    await Promise.all([
      page.waitForNavigation(),
      page.click(`button[aria-label="Revoke session ${a.sessionId}"]`),
    ]);
    expect(await page.locator(`text=${a.sessionId}`).count()).toBe(0);
    expect(await refreshes(a.refreshToken)).toBe(false);
    expect(await refreshes(b.refreshToken)).toBe(true);

    await Promise.all([page.waitForNavigation(), page.click("button:text-is('Revoke all sessions')")]);
    expect(await page.textContent("main")).toContain("No session.");
    expect(await refreshes(b.refreshToken)).toBe(false);
  });

  it("refuses a form without the session's CSRF value, and changes nothing", async () => {
    const request = chromium?.context.request;
    if (!request) throw new Error("no browser");
    const forms: Record<string, string>[] = [
      { duration: "24h" },
      { duration: "24h", csrf: "forged-value-forged-value-forged" },
    ];
    for (const form of forms) {
      const response = await request.post(`${base}/admin/console/users/${targetId}/ban`, {
        form,
        maxRedirects: 0,
      });
      expect(response.status()).toBe(403);
    }
    const { data } = await admin.getUserById(targetId);
    expect(data.user?.banned_until ?? null).toBeNull();
  });

  it("is usable at phone width", async () => {
    await page.setViewportSize({ width: 360, height: 740 });
    for (const [name, path] of [
      ["users-phone", "/admin/console/users"],
      ["user-phone", `/admin/console/users/${targetId}`],
    ] as const) {
      await page.goto(`${base}${path}`);
      const overflow = await page.evaluate("document.documentElement.scrollWidth - window.innerWidth");
      expect(overflow, name).toBeLessThanOrEqual(0);
      await check(page, name);
    }
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it("signs out: the console's session ends", async () => {
    await page.goto(`${base}/admin/console/users`);
    await Promise.all([page.waitForNavigation(), page.click("button:text-is('Sign out')")]);
    expect(new URL(page.url()).pathname).toBe("/admin/console/sign-in");
    await page.goto(`${base}/admin/console/users`);
    expect(new URL(page.url()).pathname).toBe("/admin/console/sign-in");
  });

  it("refuses a user the configuration does not name, and keeps no session of theirs", async () => {
    const sessions = async () => {
      const sql = ns?.sql;
      if (!sql) throw new Error("no database");
      const [row] = await sql<{ n: number }[]>`
        select count(*)::int as n from ${sql(ns?.namespace ?? "")}.sessions where user_id = ${targetId}
      `;
      return row?.n;
    };
    const before = await sessions();
    await page.goto(`${base}/admin/console/sign-in`);
    await page.fill("#email", targetEmail);
    await page.fill("#password", PASSWORD);
    const [response] = await Promise.all([page.waitForNavigation(), page.press("#password", "Enter")]);
    expect(response?.status()).toBe(403);
    expect(await page.textContent("main")).toContain("may not use the admin console");
    await check(page, "refused");
    await page.goto(`${base}/admin/console/users`);
    expect(new URL(page.url()).pathname).toBe("/admin/console/sign-in");
    expect(await sessions()).toBe(before);
    expect(chromium?.violations).toEqual([]);
  });
});
