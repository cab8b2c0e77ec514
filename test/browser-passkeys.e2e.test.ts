import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type FreshNamespace, migratedNamespace } from "@authsvc/adapters/testing";
import { productionServerEnv, roleKey } from "@authsvc/http/testing";
import { GoTrueAdminApi } from "@supabase/auth-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ServerProcess, startServer } from "./support/server-process.js";

/**
 * Passkeys and a WebAuthn second factor in a real browser: headless Chromium with CDP virtual
 * authenticators (CTAP2: a platform one with resident keys and user verification for the passkey, a
 * USB security key for the second factor, which auth-js asks of a cross-platform authenticator) runs
 * the auth-js browser bundle on a page served from localhost. Skipped only where no Chromium binary exists.
 */
/** Debian's Chromium: /usr/bin/chromium, or the first `chromium` on the PATH. */
const CHROMIUM =
  ["/usr/bin/chromium", ...(process.env.PATH ?? "").split(":").map((dir) => join(dir, "chromium"))].find(
    (path) => existsSync(path),
  ) ?? "/usr/bin/chromium";
const BUNDLE = fileURLToPath(
  new URL("../node_modules/@supabase/supabase-js/dist/umd/supabase.js", import.meta.url),
);
const hasChromium = existsSync(CHROMIUM);
if (!hasChromium) console.warn(`browser passkey test skipped: no Chromium at ${CHROMIUM}`);

const PAGE = `<!doctype html>
<html><head><meta charset="utf-8"><title>passkeys</title><script src="/supabase.js"></script></head>
<body><script>
  // Every step the user takes, as auth-js runs it; each answer is reported back to the test.
  window.journey = async (url, key, email, password) => {
    const client = supabase.createClient(url, key, { auth: { autoRefreshToken: false } });
    const auth = client.auth;
    const out = {};
    const fail = (step, error) => { throw new Error(step + ": " + (error && (error.code || error.message))); };
    const step = (name) => console.log("step " + name);
    let r = await auth.signInWithPassword({ email, password });
    if (r.error) fail("password", r.error);
    step("registerPasskey");
    r = await auth.registerPasskey();
    if (r.error) fail("registerPasskey", r.error);
    out.registered = r.data;
    await auth.signOut();
    out.afterSignOut = (await auth.getSession()).data.session;
    step("signInWithPasskey");
    r = await auth.signInWithPasskey();
    if (r.error) fail("signInWithPasskey", r.error);
    const session = (await auth.getSession()).data.session;
    out.passkeySession = { userId: session.user.id, claims: JSON.parse(atob(session.access_token.split(".")[1].replace(/-/g, "+").replace(/_/g, "/"))) };
    out.passkeys = (await auth.passkey.list()).data;
    return out;
  };
  // Then a security key becomes the second factor (the test plugs it in between the two).
  window.secondFactor = async (url, key, email, password) => {
    const client = supabase.createClient(url, key, { auth: { autoRefreshToken: false } });
    const auth = client.auth;
    const out = {};
    const fail = (step, error) => { throw new Error(step + ": " + (error && (error.code || error.message))); };
    const step = (name) => console.log("step " + name);
    out.aalWithPasskey = (await auth.mfa.getAuthenticatorAssuranceLevel()).data;
    step("mfa.webauthn.register");
    r = await auth.mfa.webauthn.register({ friendlyName: "security key" });
    if (r.error) fail("mfa.webauthn.register", r.error);
    out.aalAfterEnrol = (await auth.mfa.getAuthenticatorAssuranceLevel()).data;
    const factors = (await auth.mfa.listFactors()).data;
    out.factors = factors.all.map((f) => ({ type: f.factor_type, status: f.status }));
    // A new sign-in is aal1 again; the factor raises it.
    await auth.signOut();
    r = await auth.signInWithPassword({ email, password });
    if (r.error) fail("password again", r.error);
    out.aalBefore = (await auth.mfa.getAuthenticatorAssuranceLevel()).data;
    const factorId = factors.all.find((f) => f.factor_type === "webauthn").id;
    step("mfa.webauthn.authenticate");
    r = await auth.mfa.webauthn.authenticate({ factorId });
    if (r.error) fail("mfa.webauthn.authenticate", r.error);
    out.aalAfter = (await auth.mfa.getAuthenticatorAssuranceLevel()).data;
    return out;
  };
</script></body></html>`;

/** `promise`, or a rejection once `ms` passed. */
function within<T>(ms: number, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

let ns: FreshNamespace;
let server: ServerProcess;
let page: Server;
let pageOrigin: string;
const cwd = mkdtempSync(join(tmpdir(), "authsvc-browser-"));

beforeAll(async () => {
  if (!hasChromium) return;
  const bundle = readFileSync(BUNDLE);
  page = createServer((req, res) => {
    if (req.url === "/supabase.js") res.writeHead(200, { "content-type": "text/javascript" }).end(bundle);
    else res.writeHead(200, { "content-type": "text/html" }).end(PAGE);
  });
  await new Promise<void>((resolve) => page.listen(0, "127.0.0.1", resolve));
  pageOrigin = `http://localhost:${(page.address() as AddressInfo).port}`;
  ns = await migratedNamespace();
  server = await startServer(
    productionServerEnv(ns, {
      AUTHSVC_PASSKEY_ENABLED: "true",
      AUTHSVC_WEBAUTHN_RP_ID: "localhost",
      AUTHSVC_WEBAUTHN_RP_ORIGINS: pageOrigin,
      AUTHSVC_MFA_WEB_AUTHN_ENROLL_ENABLED: "true",
      AUTHSVC_MFA_WEB_AUTHN_VERIFY_ENABLED: "true",
    }),
    { cwd },
  );
}, 60_000);

afterAll(async () => {
  await server?.stop();
  await ns?.drop();
  await new Promise((resolve) => (page ? page.close(resolve) : resolve(undefined)));
  rmSync(cwd, { recursive: true, force: true });
});

describe.skipIf(!hasChromium)("passkeys in headless Chromium", () => {
  it("registers a passkey after a password sign-in, signs in with it alone, then verifies a WebAuthn factor to aal2", async () => {
    const { chromium } = await import("playwright-core");
    const profile = mkdtempSync(join(tmpdir(), "authsvc-chromium-"));
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
      ],
    });
    // What the page printed: named in the failure, to tell which step stopped.
    const pageLog: string[] = [];
    try {
      const tab = context.pages()[0] ?? (await context.newPage());
      const cdp = await context.newCDPSession(tab);
      await cdp.send("WebAuthn.enable");
      await cdp.send("WebAuthn.addVirtualAuthenticator", {
        options: {
          protocol: "ctap2",
          transport: "internal",
          hasResidentKey: true,
          hasUserVerification: true,
          isUserVerified: true,
          automaticPresenceSimulation: true,
        },
      });
      tab.on("console", (message) => pageLog.push(message.text()));
      tab.on("pageerror", (error) => pageLog.push(`error: ${error.message}`));
      await tab.goto(`${pageOrigin}/`);

      const email = `browser-${Date.now()}@example.com`;
      const password = "secret-password-1";
      const admin = new GoTrueAdminApi({
        url: server.url,
        headers: { Authorization: `Bearer ${await roleKey("service_role")}` },
      });
      const created = await admin.createUser({ email, password, email_confirm: true });
      if (created.error) throw created.error;
      const anonKey = await roleKey("anon");

      tab.setDefaultTimeout(60_000);
      const out = await within(
        60_000,
        tab.evaluate(
          ([url, key, e, p]) =>
            (
              globalThis as unknown as { journey: (...a: string[]) => Promise<Record<string, unknown>> }
            ).journey(url ?? "", key ?? "", e ?? "", p ?? ""),
          [server.url, anonKey, email, password],
        ),
      );
      // auth-js asks a second factor of a cross-platform authenticator (a security key): one on USB.
      await cdp.send("WebAuthn.addVirtualAuthenticator", {
        options: {
          protocol: "ctap2",
          transport: "usb",
          hasResidentKey: false,
          hasUserVerification: true,
          isUserVerified: true,
          automaticPresenceSimulation: true,
        },
      });
      const factor = await within(
        60_000,
        tab.evaluate(
          ([url, key, e, p]) =>
            (
              globalThis as unknown as { secondFactor: (...a: string[]) => Promise<Record<string, unknown>> }
            ).secondFactor(url ?? "", key ?? "", e ?? "", p ?? ""),
          [server.url, anonKey, email, password],
        ),
      );
      expect(out.registered).toMatchObject({ id: expect.any(String), friendly_name: expect.any(String) });
      expect(out.afterSignOut).toBeNull();
      expect(out.passkeySession).toMatchObject({
        userId: created.data.user.id,
        claims: { aal: "aal1", amr: [expect.objectContaining({ method: "passkey" })] },
      });
      expect(out.passkeys).toEqual([expect.objectContaining({ last_used_at: expect.any(String) })]);
      expect(factor.aalWithPasskey).toMatchObject({ currentLevel: "aal1", nextLevel: "aal1" });
      expect(factor.aalAfterEnrol).toMatchObject({ currentLevel: "aal2", nextLevel: "aal2" });
      expect(factor.factors).toEqual([{ type: "webauthn", status: "verified" }]);
      expect(factor.aalBefore).toMatchObject({ currentLevel: "aal1", nextLevel: "aal2" });
      expect(factor.aalAfter).toMatchObject({
        currentLevel: "aal2",
        currentAuthenticationMethods: expect.arrayContaining([
          expect.objectContaining({ method: "mfa/webauthn" }),
        ]),
      });
    } catch (thrown) {
      // The page's lines are no stack of this process: kept out of `stack`, which the runner resolves.
      const failure = new Error(`${String(thrown)}\npage log:\n${pageLog.join("\n")}`);
      failure.stack = failure.message;
      throw failure;
    } finally {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    }
  }, 120_000);
});
