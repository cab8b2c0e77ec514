import { createHmac } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generateJwtKey } from "@authsvc/adapters";
import { type FreshNamespace, migratedNamespace } from "@authsvc/adapters/testing";
import { productionServerEnv, roleKey, TEST_JWT_SECRET } from "@authsvc/http/testing";
import { GoTrueAdminApi, GoTrueClient } from "@supabase/auth-js";
import * as oauth from "oauth4webapi";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chromiumPresent, type HeadlessChromium, headlessChromium } from "./support/chromium.js";
import { freePort } from "./support/free-port.js";
import { type Flow, hostedPagesRelyingParty, insecure } from "./support/hosted-flow.js";
import { type ServerProcess, startServer } from "./support/server-process.js";

/**
 * The hosted sign-in and consent pages outside embedded mode (PostgreSQL), in a real headless
 * Chromium, driven by a relying party (oauth4webapi) that completes the code flow: a password
 * sign-in with the keyboard alone, the second factor (TOTP), the configured theme and language, and
 * what the pages refuse (a form without its CSRF value, a frame). axe-core checks every page; the
 * pages' Content-Security-Policy must report nothing (no inline script or style).
 */
const present = chromiumPresent;
const cwd = mkdtempSync(join(tmpdir(), "authsvc-hosted-pages-"));
const PASSWORD = "a-long-enough-password-1";
const PRIMARY = "#7a1f5c";

let ns: FreshNamespace | undefined;
let server: ServerProcess | undefined;
let chrome: HeadlessChromium | undefined;
let rp: Awaited<ReturnType<typeof hostedPagesRelyingParty>>;
let callback: Server | undefined;
let base = "";
let redirectUri = "";
let logoUrl = "";
let as: oauth.AuthorizationServer;

beforeAll(async () => {
  if (!present) return;
  callback = createServer((req, res) => {
    if (req.url === "/logo.svg") {
      res.writeHead(200, { "content-type": "image/svg+xml" });
      res.end(
        '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="40"><rect width="40" height="40" fill="#7a1f5c"/></svg>',
      );
      return;
    }
    res.writeHead(200, { "content-type": "text/plain" });
    res.end("back at the client");
  });
  await new Promise<void>((resolve) => callback?.listen(0, "127.0.0.1", resolve));
  const cbPort = (callback.address() as AddressInfo).port;
  redirectUri = `http://127.0.0.1:${cbPort}/callback`;
  logoUrl = `http://127.0.0.1:${cbPort}/logo.svg`;
  ns = await migratedNamespace();
  const port = await freePort();
  // localhost, not 127.0.0.1: a passkey's relying party is a domain.
  base = `http://localhost:${port}`;
  server = await startServer(
    productionServerEnv(ns, {
      PORT: String(port),
      AUTHSVC_API_EXTERNAL_URL: base,
      AUTHSVC_JWT_ISSUER: base,
      // An ES256 key for ID tokens, beside the test secret as a verify-only key (the API keys).
      AUTHSVC_JWT_KEYS: JSON.stringify([
        generateJwtKey("ES256"),
        {
          kty: "oct",
          kid: "legacy-secret",
          alg: "HS256",
          key_ops: ["verify"],
          k: Buffer.from(TEST_JWT_SECRET).toString("base64url"),
        },
      ]),
      AUTHSVC_MAILER_AUTOCONFIRM: "true",
      AUTHSVC_OAUTH_SERVER_ENABLED: "true",
      AUTHSVC_OAUTH_SERVER_ALLOW_DYNAMIC_REGISTRATION: "true",
      AUTHSVC_OAUTH_SERVER_AUTHORIZATION_PATH: "",
      AUTHSVC_PASSKEY_ENABLED: "true",
      AUTHSVC_WEBAUTHN_RP_ID: "localhost",
      AUTHSVC_WEBAUTHN_RP_ORIGINS: base,
      AUTHSVC_HOSTED_PAGES_PRODUCT_NAME: "Acme <Cloud>",
      AUTHSVC_HOSTED_PAGES_LOGO_URL: logoUrl,
      AUTHSVC_HOSTED_PAGES_COLOR_PRIMARY: PRIMARY,
      AUTHSVC_HOSTED_PAGES_TEXTS: JSON.stringify({
        en: { legal: "By continuing you accept the Acme terms." },
        fr: { legal: "En continuant, vous acceptez les conditions d’Acme." },
      }),
    }),
    { cwd },
  );
  rp = await hostedPagesRelyingParty(base, redirectUri);
  as = rp.as;
  chrome = await headlessChromium();
}, 120_000);

afterAll(async () => {
  await chrome?.close();
  await new Promise((resolve) => (callback ? callback.close(resolve) : resolve(undefined)));
  await server?.stop();
  await ns?.drop();
  rmSync(cwd, { recursive: true, force: true });
});

let people = 0;
/** A confirmed user with a password, made by the admin API. */
async function newUser(): Promise<string> {
  const admin = new GoTrueAdminApi({
    url: base,
    headers: { Authorization: `Bearer ${await roleKey("service_role")}` },
  });
  const email = `hosted-${++people}-${Date.now()}@example.com`;
  const { error } = await admin.createUser({ email, password: PASSWORD, email_confirm: true });
  if (error) throw error;
  return email;
}

/** A flow of a client registered with a name, site and logo (RFC 7591), as the consent page shows them. */
const startFlow = async (extra: Record<string, string> = {}): Promise<Flow> =>
  rp.startFlow(
    extra,
    await rp.registerClient({
      client_name: "Chromium's <Test> App",
      client_uri: "https://app.example/about",
      logo_uri: logoUrl,
    }),
  );

const finish = (flow: Flow, landed: string) => rp.finish(flow, landed);

/** The claims of a JWT, unverified: what a resource server would read after checking it. */
const claimsOf = (jwt: string) =>
  JSON.parse(Buffer.from(jwt.split(".")[1] as string, "base64url").toString()) as {
    aal: string;
    amr: { method: string }[];
  };

const newPage = (): Promise<Page> => (chrome as HeadlessChromium).newPage();
const accessible: HeadlessChromium["accessible"] = (...args) =>
  (chrome as HeadlessChromium).accessible(...args);
const violations = () => (chrome as HeadlessChromium).violations;

/** Types into the focused field, then Tab; Enter submits. Keyboard alone. */
async function signInByKeyboard(page: Page, email: string) {
  await page.waitForFunction('document.activeElement?.id === "email"', undefined, { timeout: 10_000 });
  await page.keyboard.type(email);
  await page.keyboard.press("Tab");
  await page.keyboard.type(PASSWORD);
  await Promise.all([page.waitForNavigation(), page.keyboard.press("Enter")]);
}

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

describe.skipIf(!present)("the hosted sign-in and consent pages in headless Chromium (PostgreSQL)", () => {
  it("signs in and consents with the keyboard alone, themed, and the relying party completes the code flow", async () => {
    const email = await newUser();
    const flow = await startFlow();
    const page = await newPage();
    const opened = await page.goto(flow.url);
    expect(new URL(page.url()).pathname).toBe("/oauth/consent");
    // Framing refused, script and style from authsvc's files only.
    const headers = opened?.headers() ?? {};
    expect(headers["x-frame-options"]).toBe("DENY");
    expect(headers["content-security-policy"]).toContain("frame-ancestors 'none'");
    expect(headers["content-security-policy"]).toContain("script-src 'self'");
    expect(headers["content-security-policy"]).not.toContain("unsafe-inline");
    // The theme: the product's name, its logo, its colour on the button, the legal text.
    expect(await page.textContent("h1")).toBe("Sign in to Acme <Cloud>");
    expect(await page.getAttribute("img.logo", "src")).toBe(logoUrl);
    expect(await page.textContent(".legal")).toBe("By continuing you accept the Acme terms.");
    const colour = await page.$eval(
      "button[type=submit]",
      (b) =>
        (
          globalThis as unknown as { getComputedStyle: (e: unknown) => { backgroundColor: string } }
        ).getComputedStyle(b).backgroundColor,
    );
    expect(colour).toBe("rgb(122, 31, 92)");
    await accessible(page, "sign-in");
    await signInByKeyboard(page, email);
    await page.waitForSelector("#client-name", { timeout: 10_000 });
    expect(await page.textContent("#client-name")).toBe("Chromium's <Test> App");
    expect(await page.getAttribute("#client-logo", "src")).toBe(logoUrl);
    expect(await page.textContent(".uri")).toBe("https://app.example/about");
    expect(await page.textContent("#redirect-host")).toBe(new URL(redirectUri).host);
    const scopes = await page.$$eval("#scopes li", (items) => items.map((i) => i.textContent));
    expect(scopes).toEqual([
      "openid: Confirm who you are",
      "email: See your email address",
      "profile: See your name, picture and profile",
    ]);
    await accessible(page, "consent");
    // From the page's start, Tab reaches the client's site, then Allow; Enter presses it.
    await page.keyboard.press("Tab");
    await page.keyboard.press("Tab");
    expect(await page.locator(":focus").textContent()).toBe("Allow");
    await Promise.all([page.waitForURL((u) => u.pathname === "/callback"), page.keyboard.press("Enter")]);
    const { tokens, claims } = await finish(flow, page.url());
    expect(tokens.scope).toBe("openid email profile");
    expect(claims.email).toBe(email);
    // No second factor: the client's tokens say a password, at aal1.
    expect(claimsOf(tokens.access_token)).toMatchObject({
      aal: "aal1",
      amr: [{ method: "oauth_provider/authorization_code" }, { method: "password" }],
    });
    expect(claims.acr).toBe("aal1");
    expect(violations()).toEqual([]);
    await page.close();
  });

  it("speaks the request's ui_locales, else the browser's language", async () => {
    const flow = await startFlow({ ui_locales: "de fr" });
    const page = await newPage();
    await page.goto(flow.url);
    expect(new URL(page.url()).searchParams.get("ui_locales")).toBe("de fr");
    expect(await page.getAttribute("html", "lang")).toBe("fr");
    expect(await page.textContent("h1")).toBe("Se connecter à Acme <Cloud>");
    expect(await page.textContent(".legal")).toBe("En continuant, vous acceptez les conditions d’Acme.");
    await page.close();
    const english = await fetch(new URL(flow.url), { redirect: "manual" });
    const consent = english.headers.get("location") as string;
    const french = await fetch(consent.replace(/&ui_locales=[^&]*/, ""), {
      headers: { "accept-language": "fr-CA, en;q=0.5" },
    });
    expect(await french.text()).toContain('<html lang="fr">');
    const fallback = await fetch(consent.replace(/&ui_locales=[^&]*/, ""), {
      headers: { "accept-language": "ja" },
    });
    expect(await fallback.text()).toContain('<html lang="en">');
  });

  it("asks a user with a verified TOTP factor for its code before consent, refusing a wrong one", async () => {
    const email = await newUser();
    // The user enrols an authenticator app through the API (auth-js), as an account page does.
    const user = new GoTrueClient({
      url: base,
      autoRefreshToken: false,
      persistSession: false,
      storageKey: `totp-${Date.now()}`,
    });
    const signedIn = await user.signInWithPassword({ email, password: PASSWORD });
    expect(signedIn.error).toBeNull();
    const enrolled = await user.mfa.enroll({ factorType: "totp" });
    if (enrolled.error) throw enrolled.error;
    const {
      id: factorId,
      totp: { secret },
    } = enrolled.data as { id: string; totp: { secret: string } };
    const step = Math.floor(Date.now() / 30_000);
    const verified = await user.mfa.challengeAndVerify({ factorId, code: totp(secret, step) });
    expect(verified.error).toBeNull();

    const flow = await startFlow();
    const page = await newPage();
    await page.goto(flow.url);
    await signInByKeyboard(page, email);
    await page.waitForSelector("#mfa-code", { timeout: 10_000 });
    expect(new URL(page.url()).pathname).toBe("/oauth/consent/sign-in");
    expect(await page.locator("#client-name").count()).toBe(0);
    await accessible(page, "second factor");
    // A wrong code is refused (and counted by the factor's guessing limits); the page asks again.
    await page.waitForFunction('document.activeElement?.id === "mfa-code"', undefined, { timeout: 10_000 });
    await page.keyboard.type("000000");
    await Promise.all([page.waitForNavigation(), page.keyboard.press("Enter")]);
    expect(await page.textContent("#problem")).toMatch(/invalid|code/i);
    // The code of the next step (the one just used to enrol cannot prove anything again).
    await page.fill("#mfa-code", totp(secret, step + 1));
    await Promise.all([page.waitForNavigation(), page.press("#mfa-code", "Enter")]);
    await page.waitForSelector("#client-name", { timeout: 10_000 });
    await Promise.all([
      page.waitForURL((u) => u.pathname === "/callback"),
      page.click("button[value=approve]"),
    ]);
    const { tokens, claims } = await finish(flow, page.url());
    expect(claims.email).toBe(email);
    // The second factor passed on the page is the client's too: aal2, password then TOTP, in the
    // access token, the ID token (as the metadata's acr_values_supported name it), and after a refresh.
    const methods = ["oauth_provider/authorization_code", "totp", "password"];
    expect(claimsOf(tokens.access_token)).toMatchObject({
      aal: "aal2",
      amr: methods.map((method) => ({ method })),
    });
    expect(claims).toMatchObject({ acr: "aal2", amr: methods });
    expect(as.acr_values_supported).toEqual(["aal1", "aal2"]);
    const refreshed = await oauth.processRefreshTokenResponse(
      as,
      flow.client,
      await oauth.refreshTokenGrantRequest(
        as,
        flow.client,
        oauth.None(),
        tokens.refresh_token as string,
        insecure,
      ),
    );
    expect(claimsOf(refreshed.access_token)).toMatchObject({ aal: "aal2" });
    expect(violations()).toEqual([]);
    await page.close();
  });

  it("signs in with a passkey through the page's own script (virtual authenticator), then consents", async () => {
    const email = await newUser();
    const user = new GoTrueClient({
      url: base,
      autoRefreshToken: false,
      persistSession: false,
      storageKey: `passkey-${Date.now()}`,
    });
    const signedIn = await user.signInWithPassword({ email, password: PASSWORD });
    if (signedIn.error) throw signedIn.error;
    const accessToken = signedIn.data.session?.access_token as string;
    const flow = await startFlow();
    const page = await newPage();
    const cdp = await (chrome as HeadlessChromium).context.newCDPSession(page);
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
    await page.goto(flow.url);
    // The user registered the passkey earlier, from a page of this origin (an account page would).
    const registered = await page.evaluate(`(async () => {
      const b64 = (buf) => btoa(String.fromCharCode(...new Uint8Array(buf))).replace(/\\+/g, "-").replace(/\\//g, "_").replace(/=+$/, "");
      const bytes = (s) => Uint8Array.from(atob(s.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));
      const auth = { authorization: "Bearer ${accessToken}", "content-type": "application/json" };
      const started = await (await fetch("/passkeys/registration/options", { method: "POST", headers: auth, body: "{}" })).json();
      const o = started.options;
      const publicKey = { ...o, challenge: bytes(o.challenge), user: { ...o.user, id: bytes(o.user.id) },
        excludeCredentials: (o.excludeCredentials || []).map((c) => ({ ...c, id: bytes(c.id) })) };
      const cred = await navigator.credentials.create({ publicKey });
      const credential = { id: cred.id, rawId: b64(cred.rawId), type: cred.type, clientExtensionResults: {},
        response: { clientDataJSON: b64(cred.response.clientDataJSON), attestationObject: b64(cred.response.attestationObject),
          transports: cred.response.getTransports() } };
      const verified = await fetch("/passkeys/registration/verify", { method: "POST", headers: auth,
        body: JSON.stringify({ challenge_id: started.challenge_id, credential }) });
      return verified.status;
    })()`);
    expect(registered).toBe(200);
    // The script shows the button; the keyboard reaches and presses it.
    await page.waitForSelector("#passkey", { state: "visible", timeout: 10_000 });
    await accessible(page, "sign-in with a passkey", cdp);
    await page.focus("#passkey");
    await Promise.all([
      page
        .waitForURL((u) => u.pathname === "/oauth/consent/passkey", { timeout: 20_000 })
        .catch(async (error) => {
          throw new Error(`${error}: ${await page.textContent("#passkey-problem")}`);
        }),
      page.keyboard.press("Enter"),
    ]);
    await page.waitForSelector("#client-name", { timeout: 10_000 }).catch(async () => {
      throw new Error(`no consent after the passkey: ${await page.textContent("body")}`);
    });
    await Promise.all([
      page.waitForURL((u) => u.pathname === "/callback"),
      page.click("button[value=approve]"),
    ]);
    const { claims } = await finish(flow, page.url());
    expect(claims.email).toBe(email);
    expect(violations()).toEqual([]);
    await page.close();
  });

  it("refuses a form without its CSRF value, and a decision without the sign-in's proof", async () => {
    const flow = await startFlow();
    const started = await fetch(flow.url, { redirect: "manual" });
    const consent = new URL(started.headers.get("location") as string);
    const opened = await fetch(consent);
    const cookie = (opened.headers.get("set-cookie") ?? "").split(";")[0] as string;
    const csrf = cookie.split("=")[1] as string;
    const authorizationId = consent.searchParams.get("authorization_id") as string;
    const email = await newUser();
    const post = (path: string, fields: Record<string, string>, withCookie = true) =>
      fetch(`${base}/oauth/consent/${path}`, {
        method: "POST",
        redirect: "manual",
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          ...(withCookie ? { cookie } : {}),
        },
        body: new URLSearchParams(fields),
      });
    // The form's value missing, or not the cookie's, or the cookie missing (another site's form).
    for (const [fields, withCookie] of [
      [{ authorization_id: authorizationId, email, password: PASSWORD }, true],
      [{ authorization_id: authorizationId, csrf: `${csrf}x`, email, password: PASSWORD }, true],
      [{ authorization_id: authorizationId, csrf, email, password: PASSWORD }, false],
    ] as const) {
      const refused = await post("sign-in", fields, withCookie);
      expect(refused.status).toBe(400);
      const body = await refused.text();
      expect(body).toContain("This form has expired");
      expect(body).not.toContain("client-name");
    }
    // A decision with the cookie and its value but a forged proof.
    const forged = await post("decision", {
      authorization_id: authorizationId,
      csrf,
      action: "approve",
      proof: "u.aal1.9999999999.mac",
    });
    expect(forged.status).toBe(400);
    expect(forged.headers.get("location")).toBeNull();
    // A second factor's step with a forged proof.
    const mfa = await post("mfa", {
      authorization_id: authorizationId,
      csrf,
      code: "123456",
      proof: "a.b.c.d.9999999999.mac",
    });
    expect(mfa.status).toBe(400);
    // The same sign-in with its value goes on to consent.
    const good = await post("sign-in", {
      authorization_id: authorizationId,
      csrf,
      email,
      password: PASSWORD,
    });
    expect(good.status).toBe(200);
    expect(await good.text()).toContain('id="client-name"');
  });

  it("is refused in a frame: the browser shows nothing of it inside another page", async () => {
    const flow = await startFlow();
    const page = await newPage();
    const framing = await newPage();
    // A page of another origin framing the sign-in page.
    await framing.route("http://framing.test/", (route) =>
      route.fulfill({
        contentType: "text/html",
        body: `<!doctype html><title>framing</title><iframe id="f" src="${flow.url}"></iframe>`,
      }),
    );
    await framing.goto("http://framing.test/");
    await framing.waitForTimeout(500);
    const frame = framing.frames().find((f) => f !== framing.mainFrame());
    const inside = frame
      ? await frame.evaluate('document.querySelector("#email") !== null').catch(() => false)
      : false;
    expect(inside).toBe(false);
    expect(frame).toBeDefined();
    await framing.close();
    await page.close();
    violations().length = 0;
  });

  it("serves the stylesheet from the configured colours", async () => {
    const css = await fetch(`${base}/oauth/consent/pages.css`);
    expect(css.status).toBe(200);
    expect(css.headers.get("content-type")).toContain("text/css");
    expect(await css.text()).toContain(`--primary:${PRIMARY}`);
  });
});
