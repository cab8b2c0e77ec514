import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  type CaptchaFake,
  type FreshNamespace,
  migratedNamespace,
  startCaptchaFake,
} from "@authsvc/adapters/testing";
import { productionServerEnv, roleKey } from "@authsvc/http/testing";
import { GoTrueAdminApi } from "@supabase/auth-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ServerProcess, startServer } from "./support/server-process.js";

/**
 * The admin console's sign-in asks the captcha `POST /token` asks: with a captcha on, its form shows
 * the provider's widget (and its page's Content-Security-Policy lets that widget in), and a sign-in
 * without a valid token is refused before the password is looked at. The provider is a loopback fake
 * of hCaptcha's `siteverify`.
 */
const SECRET = "0x4AAAAAAA-test-site-secret";
const PASSWORD = "a-long-enough-password-1";
const EMAIL = `captcha-admin-${Date.now()}@example.com`;
const cwd = mkdtempSync(join(tmpdir(), "authsvc-admin-console-captcha-"));
let fake: CaptchaFake;
let ns: FreshNamespace;
let server: ServerProcess;

beforeAll(async () => {
  fake = await startCaptchaFake("hcaptcha", SECRET);
  ns = await migratedNamespace();
  server = await startServer(
    productionServerEnv(ns, {
      AUTHSVC_SECURITY_CAPTCHA_ENABLED: "true",
      AUTHSVC_SECURITY_CAPTCHA_PROVIDER: "hcaptcha",
      AUTHSVC_SECURITY_CAPTCHA_SECRET: SECRET,
      AUTHSVC_SECURITY_CAPTCHA_URL: fake.url,
      AUTHSVC_HOSTED_PAGES_CAPTCHA_SITE_KEY: "site-key-of-the-console",
      AUTHSVC_ADMIN_CONSOLE_ENABLED: "true",
      AUTHSVC_ADMIN_CONSOLE_ADMINS: EMAIL,
    }),
    { cwd },
  );
  const admin = new GoTrueAdminApi({
    url: server.url,
    headers: { Authorization: `Bearer ${await roleKey("service_role")}` },
  });
  const { error } = await admin.createUser({ email: EMAIL, password: PASSWORD, email_confirm: true });
  if (error) throw error;
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await fake?.close();
  await ns?.drop();
  rmSync(cwd, { recursive: true, force: true });
});

/** The sign-in form as a browser gets it: its cookie and its CSRF value. */
async function signInForm() {
  const response = await fetch(`${server.url}/admin/console/sign-in`);
  const body = await response.text();
  const cookie = (response.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
  const csrf = /name="csrf" value="([^"]+)"/.exec(body)?.[1] ?? "";
  return { response, body, cookie, csrf };
}

const post = (cookie: string, fields: Record<string, string>) =>
  fetch(`${server.url}/admin/console/sign-in`, {
    method: "POST",
    redirect: "manual",
    headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields),
  });

describe("the admin console's sign-in with a captcha on", () => {
  it("shows the provider's widget, which its Content-Security-Policy lets in", async () => {
    const { response, body } = await signInForm();
    expect(body).toContain('class="h-captcha" data-sitekey="site-key-of-the-console"');
    expect(body).toContain('<script src="https://js.hcaptcha.com/1/api.js"');
    expect(response.headers.get("content-security-policy")).toContain(
      "script-src https://hcaptcha.com https://*.hcaptcha.com",
    );
  });

  it("refuses a sign-in without a valid captcha token, and lets one with a token in", async () => {
    const first = await signInForm();
    const refused = await post(first.cookie, { csrf: first.csrf, email: EMAIL, password: PASSWORD });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain("captcha protection: request disallowed");

    const second = await signInForm();
    const forged = await post(second.cookie, {
      csrf: second.csrf,
      email: EMAIL,
      password: PASSWORD,
      "h-captcha-response": "P1_forged",
    });
    expect(forged.status).toBe(400);

    const third = await signInForm();
    const signedIn = await post(third.cookie, {
      csrf: third.csrf,
      email: EMAIL,
      password: PASSWORD,
      "h-captcha-response": fake.issueToken(),
    });
    expect(signedIn.status).toBe(303);
    expect(signedIn.headers.get("location")).toBe("/admin/console/users");
    expect(signedIn.headers.get("set-cookie")).toContain("authsvc-admin-console=");
  });
});
