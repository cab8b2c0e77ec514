import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generateJwtKey } from "@authsvc/adapters";
import { GoTrueClient } from "@supabase/auth-js";
import * as oauth from "oauth4webapi";
import { type BrowserContext, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "./support/free-port.js";
import { type ServerProcess, startServer } from "./support/server-process.js";

/**
 * The device authorization grant (RFC 8628) driven by a real relying party (oauth4webapi's device
 * flow) against the built server in embedded mode, the user's part in headless Chromium: the
 * verification page, the built-in consent page, back to the page; then the device's tokens, and
 * every refusal the RFC names.
 */
const CHROMIUM = "/usr/bin/chromium";
const DEVICE_GRANT = "urn:ietf:params:oauth:grant-type:device_code";
const AXE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
const cwd = mkdtempSync(join(tmpdir(), "authsvc-device-"));
const profile = mkdtempSync(join(tmpdir(), "authsvc-chromium-"));
const insecure = { [oauth.allowInsecureRequests]: true } as const;
const EMAIL = "viewer@example.com";
const PASSWORD = "a-long-enough-password-2";
const PER_ADDRESS = 5;
let server: ServerProcess | undefined;
let browser: BrowserContext | undefined;
let base = "";
let as: oauth.AuthorizationServer;
let tv: oauth.Client;
let other: oauth.Client;
const none = oauth.None();

beforeAll(async () => {
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
      AUTHSVC_OAUTH_DEVICE_POLL_INTERVAL: "1",
      AUTHSVC_RATE_LIMIT_OAUTH_DEVICE_VERIFY: String(PER_ADDRESS),
      // The guessing test speaks for several addresses through X-Forwarded-For.
      AUTHSVC_API_TRUSTED_PROXY_HOPS: "1",
    },
    { cwd },
  );
  const users = new GoTrueClient({ url: base, autoRefreshToken: false, persistSession: false });
  const { error } = await users.signUp({ email: EMAIL, password: PASSWORD });
  if (error) throw error;
  const issuer = new URL(base);
  as = await oauth.processDiscoveryResponse(
    issuer,
    await oauth.discoveryRequest(issuer, { algorithm: "oauth2", ...insecure }),
  );
  tv = await register("Living-room TV");
  other = await register("Another device");
  browser = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--no-first-run",
    ],
  });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  rmSync(cwd, { recursive: true, force: true });
  rmSync(profile, { recursive: true, force: true });
});

/** A public client registered for the device grant (RFC 7591 `grant_types`). */
async function register(name: string): Promise<oauth.Client> {
  const response = await fetch(`${base}/oauth/clients/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      client_name: name,
      redirect_uris: ["http://127.0.0.1/unused"],
      token_endpoint_auth_method: "none",
      grant_types: [DEVICE_GRANT, "refresh_token"],
    }),
  });
  expect(response.status).toBe(201);
  const body = (await response.json()) as { client_id: string; grant_types: string[] };
  expect(body.grant_types).toEqual([DEVICE_GRANT, "refresh_token"]);
  return {
    client_id: body.client_id,
    token_endpoint_auth_method: "none",
    id_token_signed_response_alg: "ES256",
  };
}

/** A device's request (RFC 8628 §3.1) through oauth4webapi. */
async function startDevice(client = tv, scope = "openid email") {
  const response = await oauth.deviceAuthorizationRequest(as, client, none, { scope }, insecure);
  return oauth.processDeviceAuthorizationResponse(as, client, response);
}

/** One poll: the tokens, or the OAuth error word and description. */
async function poll(deviceCode: string, client = tv) {
  const response = await oauth.deviceCodeGrantRequest(as, client, none, deviceCode, insecure);
  try {
    return { tokens: await oauth.processDeviceCodeResponse(as, client, response) };
  } catch (e) {
    if (e instanceof oauth.ResponseBodyError) return { error: e.error, description: e.error_description };
    throw e;
  }
}

const wait = (seconds: number) => new Promise((resolve) => setTimeout(resolve, seconds * 1000));

/** axe-core's serious and critical violations on the page, by rule. */
async function axeViolations(page: Page): Promise<string[]> {
  // Evaluated over DevTools, not as a page script: the page's CSP allows none.
  await page.evaluate(AXE);
  const violations = (await page.evaluate(
    "axe.run().then((r) => r.violations.map((v) => ({ id: v.id, impact: v.impact })))",
  )) as { id: string; impact: string }[];
  return violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id);
}

/**
 * The user's part, with the keyboard alone: the verification page, the code typed as a person might
 * (lower case, a space for the dash), the built-in consent page's sign-in, then the decision.
 */
async function userTypes(device: oauth.DeviceAuthorizationResponse, decision: "Allow" | "Deny") {
  const page = await (browser as BrowserContext).newPage();
  const opened = await page.goto(device.verification_uri);
  // Framing refused; script and style from authsvc's files only.
  const headers = opened?.headers() ?? {};
  expect(headers["x-frame-options"]).toBe("DENY");
  expect(headers["content-security-policy"]).toContain("frame-ancestors 'none'");
  expect(headers["content-security-policy"]).not.toContain("unsafe-inline");
  expect(await axeViolations(page)).toEqual([]);
  await page.waitForFunction('document.activeElement?.id === "user_code"', undefined, { timeout: 10_000 });
  await page.keyboard.type(device.user_code.toLowerCase().replace("-", " "));
  await Promise.all([page.waitForURL((u) => u.pathname === "/oauth/consent"), page.keyboard.press("Enter")]);
  await page.waitForFunction('document.activeElement?.id === "email"', undefined, { timeout: 10_000 });
  await page.keyboard.type(EMAIL);
  await page.keyboard.press("Tab");
  await page.keyboard.type(PASSWORD);
  await Promise.all([page.waitForNavigation(), page.keyboard.press("Enter")]);
  await page.waitForSelector("#client-name", { timeout: 10_000 });
  expect(await page.textContent("#client-name")).toBe("Living-room TV");
  await page.keyboard.press("Tab");
  if (decision === "Deny") await page.keyboard.press("Tab");
  expect(await page.locator(":focus").textContent()).toBe(decision);
  await Promise.all([page.waitForURL((u) => u.pathname === "/oauth/device"), page.keyboard.press("Enter")]);
  const landed = {
    result: new URL(page.url()).searchParams.get("result"),
    text: await page.textContent("h1"),
  };
  expect(await axeViolations(page)).toEqual([]);
  await page.close();
  return landed;
}

/** Submits `userCode` on the page as a client at `address`, with the page's own form cookie. */
async function submitCode(userCode: string, address: string) {
  const headers = { "x-forwarded-for": address };
  const opened = await fetch(`${base}/oauth/device`, { headers });
  const cookie = (opened.headers.get("set-cookie") ?? "").split(";")[0] as string;
  return fetch(`${base}/oauth/device`, {
    method: "POST",
    redirect: "manual",
    headers: { ...headers, cookie, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ user_code: userCode, csrf: cookie.split("=")[1] as string }),
  });
}

describe("the device authorization grant with oauth4webapi and the pages in headless Chromium", () => {
  it("is discovered: the endpoint and the grant type in the metadata", () => {
    expect(as.device_authorization_endpoint).toBe(`${base}/oauth/device_authorization`);
    expect(as.grant_types_supported).toContain(DEVICE_GRANT);
  });

  it("pending until the user approves on the page; then tokens once, to one of 8 concurrent polls", async () => {
    const device = await startDevice();
    expect(device.user_code).toMatch(/^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/);
    expect(device).toMatchObject({ verification_uri: `${base}/oauth/device`, interval: 1, expires_in: 600 });
    expect(await poll(device.device_code)).toMatchObject({ error: "authorization_pending" });
    expect(await userTypes(device, "Allow")).toEqual({ result: "approved", text: "Device connected" });
    await wait(device.interval ?? 5);
    const polls = await Promise.all(Array.from({ length: 8 }, () => poll(device.device_code)));
    const won = polls.filter((p) => p.tokens !== undefined);
    expect(won).toHaveLength(1);
    expect(polls.filter((p) => p.error === "invalid_grant")).toHaveLength(7);
    const tokens = won[0]?.tokens as oauth.TokenEndpointResponse;
    expect(tokens).toMatchObject({ token_type: "bearer", scope: "openid email" });
    expect(typeof tokens.refresh_token).toBe("string");
    const claims = oauth.getValidatedIdTokenClaims(tokens);
    expect(claims).toMatchObject({ iss: base, aud: [tv.client_id], email: EMAIL });
    expect(claims?.nonce).toBeUndefined();
    // The access token is the client's: userinfo answers the user, with the scopes granted.
    const info = await fetch(`${base}/oauth/userinfo`, {
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    expect(await info.json()).toMatchObject({ email: EMAIL });
    const payload = JSON.parse(
      Buffer.from(tokens.access_token.split(".")[1] as string, "base64url").toString(),
    );
    expect(payload).toMatchObject({ client_id: tv.client_id, scope: "openid email" });
    // The client's token is not the user's: the account refuses it.
    const user = await fetch(`${base}/user`, { headers: { authorization: `Bearer ${tokens.access_token}` } });
    expect(user.status).toBe(403);
    // A spent device code stays spent.
    await wait(device.interval ?? 5);
    expect(await poll(device.device_code)).toMatchObject({ error: "invalid_grant" });
    // The refresh token rotates at the token endpoint as the code flow's.
    const refreshed = await oauth.processRefreshTokenResponse(
      as,
      tv,
      await oauth.refreshTokenGrantRequest(as, tv, none, tokens.refresh_token as string, insecure),
    );
    expect(refreshed.access_token).not.toBe(tokens.access_token);
  });

  it("answers access_denied when the user denies", async () => {
    const device = await startDevice(tv, "email");
    expect(await userTypes(device, "Deny")).toEqual({ result: "denied", text: "Request denied" });
    expect(await poll(device.device_code)).toMatchObject({ error: "access_denied" });
  });

  it("answers slow_down to a device polling faster than its interval, which grows by 5 s each time", async () => {
    const device = await startDevice();
    expect(await poll(device.device_code)).toMatchObject({ error: "authorization_pending" });
    expect(await poll(device.device_code)).toEqual({
      error: "slow_down",
      description: "Polling too fast: wait 6 seconds between polls",
    });
    await wait(device.interval ?? 5);
    // One second was enough before; now the interval is 6 s.
    expect(await poll(device.device_code)).toMatchObject({
      error: "slow_down",
      description: expect.stringContaining("11 seconds"),
    });
  });

  it("refuses another client's device code, and tells nothing of it", async () => {
    const device = await startDevice();
    expect(await poll(device.device_code, other)).toEqual({
      error: "invalid_grant",
      description: "Device code was issued to another client",
    });
    // The refusal changed nothing: the right client's first poll is on time.
    expect(await poll(device.device_code)).toMatchObject({ error: "authorization_pending" });
    expect(await poll("not-a-device-code")).toMatchObject({ error: "invalid_grant" });
  });

  it("limits user codes per client address, right or wrong, and refuses wrong ones alike", async () => {
    const device = await startDevice();
    const said = async (r: Response) => /<p class="error"[^>]*>([^<]*)<\/p>/.exec(await r.text())?.[1];
    const answers = [];
    for (let i = 0; i < PER_ADDRESS; i++)
      answers.push(await submitCode(i % 2 ? "BBBB-BBBB" : "nonsense", "198.51.100.20"));
    expect(answers.map((a) => a.status)).toEqual(Array(PER_ADDRESS).fill(400));
    const words = new Set(await Promise.all(answers.map(said)));
    expect([...words]).toEqual([
      "That code is not valid or has expired. Check the code on your device and try again.",
    ]);
    // Past the limit, even the right code is refused from that address, without being looked at.
    const limited = await submitCode(device.user_code, "198.51.100.20");
    expect(limited.status).toBe(429);
    const elsewhere = await submitCode(device.user_code, "198.51.100.21");
    expect(elsewhere.status).toBe(303);
    expect(elsewhere.headers.get("location")).toMatch(/\/oauth\/consent\?authorization_id=[0-9a-f]{32}$/);
  });
});
