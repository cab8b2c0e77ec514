import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generateJwtKey } from "@authsvc/adapters";
import { GoTrueClient } from "@supabase/auth-js";
import * as oauth from "oauth4webapi";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chromiumPresent, type HeadlessChromium, headlessChromium } from "./support/chromium.js";
import { freePort } from "./support/free-port.js";
import { type ServerProcess, startServer } from "./support/server-process.js";

/**
 * The built-in sign-in and consent page of the embedded (development) mode, in a real headless
 * Chromium: the user signs in with the keyboard, sees the client's name and scopes, approves and lands
 * on the client's redirect URI with a code; a denial lands with `access_denied`.
 */
const present = chromiumPresent;
const cwd = mkdtempSync(join(tmpdir(), "authsvc-consent-page-"));
let server: ServerProcess | undefined;
let chrome: HeadlessChromium | undefined;
let callback: Server | undefined;
let base = "";
let redirectUri = "";
const EMAIL = "consenting@example.com";
const PASSWORD = "a-long-enough-password-1";

beforeAll(async () => {
  if (!present) return;
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  server = await startServer(
    {
      PORT: String(port),
      AUTHSVC_DATA_DIR: join(cwd, "data"),
      AUTHSVC_API_EXTERNAL_URL: base,
      AUTHSVC_JWT_ISSUER: base,
      AUTHSVC_JWT_KEYS: JSON.stringify([generateJwtKey("ES256")]),
      AUTHSVC_MAILER_AUTOCONFIRM: "true",
      AUTHSVC_OAUTH_SERVER_ENABLED: "true",
      AUTHSVC_OAUTH_SERVER_ALLOW_DYNAMIC_REGISTRATION: "true",
    },
    { cwd },
  );
  callback = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "text/plain" });
    res.end("back at the client");
  });
  await new Promise<void>((resolve) => callback?.listen(0, "127.0.0.1", resolve));
  const address = callback.address();
  redirectUri = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}/callback`;
  const users = new GoTrueClient({ url: base, autoRefreshToken: false, persistSession: false });
  const { error } = await users.signUp({ email: EMAIL, password: PASSWORD });
  if (error) throw error;
  chrome = await headlessChromium();
}, 120_000);

afterAll(async () => {
  await chrome?.close();
  await new Promise((resolve) => (callback ? callback.close(resolve) : resolve(undefined)));
  await server?.stop();
  rmSync(cwd, { recursive: true, force: true });
});

async function registerClient(): Promise<string> {
  const response = await fetch(`${base}/oauth/clients/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      client_name: "Chromium's <Test> App",
      redirect_uris: [redirectUri],
      token_endpoint_auth_method: "none",
    }),
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as { client_id: string }).client_id;
}

/** The query of `/oauth/authorize` for the client, the state and the verifier. */
const authorizeQuery = async (clientId: string, state: string, verifier: string) =>
  new URLSearchParams({
    client_id: clientId,
    redirect_uri: redirectUri,
    scope: "openid email profile",
    state,
    nonce: "nonce-1",
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: "S256",
  }).toString();

/**
 * Opens `/oauth/authorize` in the browser and signs in on the built-in page, with the keyboard. Under
 * a base path (`/auth/v1`), the page is opened there, as when `API_EXTERNAL_URL` names it.
 */
async function signInThrough(clientId: string, state: string, verifier: string, basePath = "") {
  const page = await (chrome as HeadlessChromium).context.newPage();
  const query = await authorizeQuery(clientId, state, verifier);
  if (basePath === "") await page.goto(`${base}/oauth/authorize?${query}`);
  else {
    const started = await fetch(`${base}${basePath}/oauth/authorize?${query}`, { redirect: "manual" });
    const consent = new URL(started.headers.get("location") as string);
    await page.goto(`${base}${basePath}${consent.pathname}${consent.search}`);
  }
  expect(new URL(page.url()).pathname).toBe(`${basePath}/oauth/consent`);
  // The email field takes the focus by itself (autofocus), which Chromium may apply only after the
  // load event: typing before then would go nowhere.
  await page.waitForFunction('document.activeElement?.id === "email"', undefined, { timeout: 10_000 });
  await page.keyboard.type(EMAIL);
  await page.keyboard.press("Tab");
  await page.keyboard.type(PASSWORD);
  await Promise.all([
    page.waitForURL((u) => u.pathname === `${basePath}/oauth/consent/sign-in`),
    page.keyboard.press("Enter"),
  ]);
  const shown = await page.waitForSelector("#client-name", { timeout: 10_000 }).catch(async () => {
    throw new Error(`the consent page did not follow the sign-in: ${await page.textContent("body")}`);
  });
  expect(shown).not.toBeNull();
  return page;
}

describe.skipIf(!present)("the built-in consent page in headless Chromium", () => {
  it("signs in, shows the client and its scopes, approves, and lands on the redirect URI with a code", async () => {
    const clientId = await registerClient();
    const verifier = oauth.generateRandomCodeVerifier();
    const page = await signInThrough(clientId, "state-approve", verifier);
    expect(await page.textContent("#client-name")).toBe("Chromium's <Test> App");
    const scopes = await page.$$eval("#scopes li strong", (items) => items.map((i) => i.textContent));
    expect(scopes).toEqual(["openid", "email", "profile"]);
    // Allow is the first control: Tab reaches it, Enter presses it.
    await page.keyboard.press("Tab");
    expect(await page.locator(":focus").textContent()).toBe("Allow");
    await Promise.all([page.waitForURL((u) => u.pathname === "/callback"), page.keyboard.press("Enter")]);
    const landed = new URL(page.url());
    expect(`${landed.origin}${landed.pathname}`).toBe(redirectUri);
    expect(landed.searchParams.get("state")).toBe("state-approve");
    const code = landed.searchParams.get("code") as string;
    expect(code.length).toBeGreaterThan(20);
    const exchanged = await fetch(`${base}/oauth/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: "authorization_code",
        code,
        code_verifier: verifier,
        client_id: clientId,
      }),
    });
    expect(exchanged.status).toBe(200);
    expect(await exchanged.json()).toMatchObject({
      id_token: expect.any(String),
      scope: "openid email profile",
    });
    await page.close();
  });

  it("signs in and approves under the base path /auth/v1 too: the form's cookie follows the path", async () => {
    const clientId = await registerClient();
    const page = await signInThrough(
      clientId,
      "state-base-path",
      oauth.generateRandomCodeVerifier(),
      "/auth/v1",
    );
    expect(await page.textContent("#client-name")).toBe("Chromium's <Test> App");
    await Promise.all([
      page.waitForURL((u) => u.pathname === "/callback", { timeout: 10_000 }),
      page.click("button[value=approve]"),
    ]);
    const landed = new URL(page.url());
    expect(landed.searchParams.get("state")).toBe("state-base-path");
    expect(landed.searchParams.get("code")).not.toBeNull();
    await page.close();
  });

  it("lands with access_denied and the state when the user denies", async () => {
    const clientId = await registerClient();
    const page = await signInThrough(clientId, "state-deny", oauth.generateRandomCodeVerifier());
    await Promise.all([
      page.waitForURL((u) => u.pathname === "/callback", { timeout: 10_000 }),
      page.click("button[value=deny]"),
    ]);
    const landed = new URL(page.url());
    expect(landed.searchParams.get("error")).toBe("access_denied");
    expect(landed.searchParams.get("state")).toBe("state-deny");
    expect(landed.searchParams.get("code")).toBeNull();
    await page.close();
  });

  it("refuses a decision posted without the signed-in step's proof, even with the form's cookie (cross-site)", async () => {
    const csrf = "x".repeat(40);
    const forged = await fetch(`${base}/oauth/consent/decision`, {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        cookie: `authsvc-oauth-consent=${csrf}`,
      },
      body: new URLSearchParams({
        authorization_id: "abc",
        action: "approve",
        csrf,
        proof: "u.9999999999.mac",
      }),
    });
    expect(forged.status).toBe(400);
    expect(forged.headers.get("location")).toBeNull();
    expect(await forged.text()).toContain("This form has expired");
  });
});
