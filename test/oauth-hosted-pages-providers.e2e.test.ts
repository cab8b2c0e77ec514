import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generateJwtKey } from "@authsvc/adapters";
import { type FreshNamespace, migratedNamespace } from "@authsvc/adapters/testing";
import { productionServerEnv, TEST_JWT_SECRET } from "@authsvc/http/testing";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chromiumPresent, type HeadlessChromium, headlessChromium } from "./support/chromium.js";
import { freePort } from "./support/free-port.js";
import { hostedPagesRelyingParty } from "./support/hosted-flow.js";
import { oauthBrowser } from "./support/oauth-browser.js";
import { cookieJar, OP_CLIENT, type OpenIdProvider, startOpenIdProvider } from "./support/openid-provider.js";
import { type ServerProcess, startServer } from "./support/server-process.js";

/**
 * The hosted sign-in page's external providers: a user signs in through a real OpenID Provider
 * (`oidc-provider` on the loopback, configured as authsvc's Keycloak) from the page, comes back to
 * the page signed in, consents, and the relying party (oauth4webapi) completes its code flow — in
 * headless Chromium. Then what the provider's return refuses: another browser, a tampered request id,
 * a redirect target of the form's own, words put in its address. And the logout pages in the same frame.
 */
const cwd = mkdtempSync(join(tmpdir(), "authsvc-hosted-providers-"));
let ns: FreshNamespace | undefined;
let op: OpenIdProvider | undefined;
let server: ServerProcess | undefined;
let chrome: HeadlessChromium | undefined;
let clientSite: Server | undefined;
let base = "";
let redirectUri = "";
let rp: Awaited<ReturnType<typeof hostedPagesRelyingParty>>;

beforeAll(async () => {
  clientSite = createServer((_req, res) => res.writeHead(200, { "content-type": "text/plain" }).end("back"));
  await new Promise<void>((resolve) => clientSite?.listen(0, "127.0.0.1", resolve));
  redirectUri = `http://127.0.0.1:${(clientSite.address() as AddressInfo).port}/callback`;
  const port = await freePort();
  base = `http://localhost:${port}`;
  ns = await migratedNamespace();
  op = await startOpenIdProvider([`${base}/callback`]);
  server = await startServer(
    productionServerEnv(ns, {
      PORT: String(port),
      AUTHSVC_API_EXTERNAL_URL: base,
      AUTHSVC_JWT_ISSUER: base,
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
      AUTHSVC_EXTERNAL_KEYCLOAK_ENABLED: "true",
      AUTHSVC_EXTERNAL_KEYCLOAK_CLIENT_ID: OP_CLIENT.id,
      AUTHSVC_EXTERNAL_KEYCLOAK_SECRET: OP_CLIENT.secret,
      AUTHSVC_EXTERNAL_KEYCLOAK_URL: op.realm,
      // The test's provider, as Keycloak, answers its user info only to `openid`.
      AUTHSVC_HOSTED_PAGES_PROVIDER_SCOPES: "keycloak:openid",
    }),
    { cwd },
  );
  rp = await hostedPagesRelyingParty(base, redirectUri);
  if (chromiumPresent) chrome = await headlessChromium();
}, 120_000);

afterAll(async () => {
  await chrome?.close();
  await server?.stop();
  await op?.close();
  await new Promise((resolve) => (clientSite ? clientSite.close(resolve) : resolve(undefined)));
  await ns?.drop();
  rmSync(cwd, { recursive: true, force: true });
});

let people = 0;
const account = () => `hosted-${Date.now()}-${++people}`;

/** The provider's development pages: its login form (any name, any password), then its consent. */
async function atProvider(page: Page, login: string) {
  const providerOrigin = new URL(op?.realm ?? "").origin;
  for (let step = 0; step < 4 && new URL(page.url()).origin === providerOrigin; step++) {
    if (await page.locator("input[name=login]").count()) {
      await page.fill("input[name=login]", login);
      await page.fill("input[name=password]", "any-password");
    }
    await Promise.all([page.waitForNavigation(), page.click("button[type=submit]")]);
  }
}

describe.skipIf(!chromiumPresent)(
  "an external provider on the hosted sign-in page, in headless Chromium",
  () => {
    it("signs in through the provider, comes back signed in to consent, and the relying party completes the flow", async () => {
      const login = account();
      const flow = await rp.startFlow();
      const page = await (chrome as HeadlessChromium).newPage();
      await page.goto(flow.url);
      const button = page.locator("button[name=provider][value=keycloak]");
      expect(await button.textContent()).toBe("Continue with Keycloak");
      await (chrome as HeadlessChromium).accessible(page, "sign-in with a provider");
      await Promise.all([page.waitForNavigation(), button.click()]);
      expect(new URL(page.url()).origin).toBe(new URL(op?.realm ?? "").origin);
      await atProvider(page, login);
      // Back on the hosted pages, signed in: the consent form, for this user.
      await page.waitForSelector("#client-name", { timeout: 10_000 });
      expect(new URL(page.url()).pathname).toBe("/oauth/consent/provider-return");
      expect(await page.textContent("main")).toContain(`${login}@example.com`);
      await (chrome as HeadlessChromium).accessible(page, "consent after a provider");
      await Promise.all([
        page.waitForURL((u) => u.href.startsWith(redirectUri)),
        page.click("button[value=approve]"),
      ]);
      const { tokens, claims } = await rp.finish(flow, page.url());
      expect(claims.email).toBe(`${login}@example.com`);
      const access = JSON.parse(
        Buffer.from(tokens.access_token.split(".")[1] as string, "base64url").toString(),
      );
      expect(access.amr.map((m: { method: string }) => m.method)).toContain("oauth");
      expect(chrome?.violations).toEqual([]);
      await page.close();
    });

    it("shows the logout pages in the hosted pages' frame: accessible, styled from their file, nothing refused by the CSP", async () => {
      const client = await rp.registerClient();
      const page = await (chrome as HeadlessChromium).newPage();
      await page.goto(`${base}/oauth/logout?client_id=${client.client_id}&ui_locales=fr`);
      expect(await page.getAttribute("html", "lang")).toBe("fr");
      expect(await page.textContent("#client-name")).toBe("Hosted pages' test app");
      // The stylesheet applied: the button wears the primary colour (the default theme's).
      const colour = await page.$eval(
        "button[type=submit]",
        (b) =>
          (
            globalThis as unknown as { getComputedStyle: (e: unknown) => { backgroundColor: string } }
          ).getComputedStyle(b).backgroundColor,
      );
      expect(colour).toBe("rgb(29, 78, 216)");
      await (chrome as HeadlessChromium).accessible(page, "logout confirmation");
      await Promise.all([page.waitForNavigation(), page.click("button[type=submit]")]);
      expect(await page.textContent("h1")).toBe("Vous êtes déconnecté");
      await (chrome as HeadlessChromium).accessible(page, "signed out");
      expect(chrome?.violations).toEqual([]);
      await page.close();
    });
  },
);

/**
 * A browser without a window: the hosted page opened, its provider form posted (with `extra` fields),
 * the provider passed, and `/callback` answered; what it answers is where the browser would go next.
 */
async function throughHostedProvider(extra: Record<string, string> = {}) {
  const jar = cookieJar();
  const get = async (url: string) => {
    const res = await fetch(url, { redirect: "manual", headers: { cookie: jar.header() } });
    jar.keep(res);
    return res;
  };
  const flow = await rp.startFlow();
  const page = await get((await get(flow.url)).headers.get("location") as string);
  const html = await page.text();
  const field = (name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1] ?? "";
  const posted = await fetch(`${base}/oauth/consent/provider`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: jar.header() },
    body: new URLSearchParams({
      authorization_id: field("authorization_id"),
      csrf: field("csrf"),
      locale: "en",
      provider: "keycloak",
      ...extra,
    }),
  });
  expect(posted.status).toBe(303);
  jar.keep(posted);
  // The provider's pages, by another jar (its own origin's cookies).
  const provider = oauthBrowser({
    serverUrl: "http://server.invalid",
    providerOrigin: new URL(op?.realm ?? "").origin,
    callbackUrl: `${base}/callback`,
  });
  const back = await provider.throughProvider(posted.headers.get("location") as string, account());
  const called = await get(back.href);
  expect(called.status, called.headers.get("location") ?? "").toBe(302);
  return { flow, jar, get, landing: new URL(called.headers.get("location") as string) };
}

/** The pending request id of another authorization request (another client's, or the attacker's). */
async function anotherRequestId() {
  const flow = await rp.startFlow();
  const started = await fetch(flow.url, { redirect: "manual" });
  return new URL(started.headers.get("location") as string).searchParams.get("authorization_id") as string;
}

describe("the provider's return to the hosted page", () => {
  it("comes back to the page's own return whatever the form adds, and only in the browser that started", async () => {
    const { landing, get, jar } = await throughHostedProvider({
      redirect_to: "https://evil.example/steal",
      return_to: "https://evil.example/steal",
    });
    expect(`${landing.origin}${landing.pathname}`).toBe(`${base}/oauth/consent/provider-return`);
    expect(landing.searchParams.get("code")).toBeTruthy();
    // Another browser (no cookie of the start): refused, no consent, the code not spent.
    const elsewhere = await fetch(landing, { redirect: "manual" });
    expect(elsewhere.status).toBe(400);
    const refused = await elsewhere.text();
    expect(refused).toContain("This form has expired");
    expect(refused).not.toContain('id="client-name"');
    // The browser that started it: signed in, the consent form.
    const here = await get(landing.href);
    expect(here.status).toBe(200);
    expect(await here.text()).toContain('id="client-name"');
    // Its form cookie is new (the provider's cross-site return carries no SameSite=Strict cookie).
    expect(jar.header()).toContain("authsvc-oauth-consent=");
  });

  it("refuses the return with another request's id: the code is bound to the request it was started for", async () => {
    const { landing, get } = await throughHostedProvider();
    const tampered = new URL(landing);
    tampered.searchParams.set("authorization_id", await anotherRequestId());
    const answer = await get(tampered.href);
    expect(answer.status).toBe(400);
    const body = await answer.text();
    expect(body).toContain("This form has expired");
    expect(body).not.toContain('id="client-name"');
    expect(answer.headers.get("location")).toBeNull();
  });

  it("says its own words for a refusal, never those put in the address", async () => {
    const { landing, get } = await throughHostedProvider();
    const forged = new URL(landing);
    forged.searchParams.delete("code");
    forged.searchParams.set("error", "access_denied");
    forged.searchParams.set("error_description", "Call +1 555 0100 to unlock your account");
    const answer = await get(forged.href);
    expect(answer.status).toBe(400);
    const body = await answer.text();
    expect(body).toContain("The sign-in with the provider did not complete. Try again.");
    expect(body).not.toContain("555 0100");
    // The sign-in page again, its forms usable: the provider's button among them.
    expect(body).toContain('name="provider" value="keycloak"');
  });
});
