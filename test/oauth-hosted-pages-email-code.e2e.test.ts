import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { generateJwtKey } from "@authsvc/adapters";
import {
  type FreshNamespace,
  mailCode,
  migratedNamespace,
  nthMail,
  startSmtpSink,
} from "@authsvc/adapters/testing";
import { productionServerEnv, roleKey, TEST_JWT_SECRET } from "@authsvc/http/testing";
import { GoTrueAdminApi } from "@supabase/auth-js";
import * as oauth from "oauth4webapi";
import { type Browser, chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "./support/free-port.js";
import { type ServerProcess, startServer } from "./support/server-process.js";

/**
 * Signing in with an emailed code on the hosted sign-in page, through a real SMTP server: in headless
 * Chromium with the keyboard alone to the relying party's tokens (oauth4webapi), and every refusal —
 * a form without its CSRF value, a wrong code, the attempt limit, a replayed code, another address's
 * code, a proof taken to another browser or altered — with plain requests.
 */
const CHROMIUM = "/usr/bin/chromium";
const present = existsSync(CHROMIUM);
const AXE = readFileSync(
  fileURLToPath(new URL("../node_modules/axe-core/axe.min.js", import.meta.url)),
  "utf8",
);
const cwd = mkdtempSync(join(tmpdir(), "authsvc-email-code-"));
const insecure = { [oauth.allowInsecureRequests]: true } as const;

let sink: Awaited<ReturnType<typeof startSmtpSink>> | undefined;
let ns: FreshNamespace | undefined;
let server: ServerProcess | undefined;
let browser: Browser | undefined;
let callback: Server | undefined;
let base = "";
let redirectUri = "";
let as: oauth.AuthorizationServer;

beforeAll(async () => {
  if (!present) return;
  callback = createServer((_req, res) => res.end("back at the client"));
  await new Promise<void>((resolve) => callback?.listen(0, "127.0.0.1", resolve));
  redirectUri = `http://127.0.0.1:${(callback.address() as AddressInfo).port}/callback`;
  sink = await startSmtpSink();
  ns = await migratedNamespace();
  const port = await freePort();
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
      AUTHSVC_SMTP_HOST: sink.host,
      AUTHSVC_SMTP_PORT: String(sink.port),
      AUTHSVC_SMTP_ADMIN_EMAIL: "auth@example.com",
      AUTHSVC_OAUTH_SERVER_ENABLED: "true",
      AUTHSVC_OAUTH_SERVER_ALLOW_DYNAMIC_REGISTRATION: "true",
      AUTHSVC_OAUTH_SERVER_AUTHORIZATION_PATH: "",
    }),
    { cwd },
  );
  const issuer = new URL(base);
  as = await oauth.processDiscoveryResponse(
    issuer,
    await oauth.discoveryRequest(issuer, { algorithm: "oidc", ...insecure }),
  );
  browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ["--no-sandbox"] });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => (callback ? callback.close(resolve) : resolve(undefined)));
  await server?.stop();
  await sink?.close();
  await ns?.drop();
  rmSync(cwd, { recursive: true, force: true });
});

let people = 0;
/** A confirmed user made by the admin API (no password: the code is how they sign in). */
async function newUser(): Promise<string> {
  const admin = new GoTrueAdminApi({
    url: base,
    headers: { Authorization: `Bearer ${await roleKey("service_role")}` },
  });
  const email = `code-${++people}-${Date.now()}@example.com`;
  const { error } = await admin.createUser({ email, email_confirm: true });
  if (error) throw error;
  return email;
}

/** A public client and its authorization request (PKCE), as oauth4webapi starts one. */
async function startFlow() {
  const registered = await fetch(as.registration_endpoint as string, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      client_name: "Code App",
      redirect_uris: [redirectUri],
      token_endpoint_auth_method: "none",
    }),
  });
  const client: oauth.Client = {
    client_id: ((await registered.json()) as { client_id: string }).client_id,
    token_endpoint_auth_method: "none",
  };
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const url = new URL(as.authorization_endpoint as string);
  url.search = new URLSearchParams({
    client_id: client.client_id,
    redirect_uri: redirectUri,
    response_type: "code",
    scope: "openid email",
    state,
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: "S256",
  }).toString();
  return { client, verifier, state, url: url.href };
}

/** A browser of plain requests: the sign-in page opened, its cookie kept, its forms posted. */
async function requestBrowser(authorizeUrl: string) {
  const started = await fetch(authorizeUrl, { redirect: "manual" });
  const page = new URL(started.headers.get("location") as string);
  const opened = await fetch(page);
  const cookie = (opened.headers.get("set-cookie") ?? "").split(";")[0] as string;
  const csrf = cookie.split("=")[1] as string;
  const authorizationId = page.searchParams.get("authorization_id") as string;
  const post = async (path: string, fields: Record<string, string>) => {
    const response = await fetch(`${base}/oauth/consent/${path}`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie },
      body: new URLSearchParams({ authorization_id: authorizationId, csrf, ...fields }),
    });
    return { status: response.status, body: await response.text() };
  };
  return { csrf, authorizationId, post };
}

const proofOf = (body: string) => /name="proof" value="([^"]+)"/.exec(body)?.[1] ?? "";

describe.skipIf(!present)("signing in with an emailed code on the hosted page", () => {
  it("with the keyboard alone: the address, the mailed code, consent; the client's tokens say otp", async () => {
    const email = await newUser();
    const flow = await startFlow();
    const page = await (browser as Browser).newPage();
    await page.goto(flow.url);
    await page.waitForFunction('document.activeElement?.id === "email"');
    // Tab from the password form to the code form's address field, as a keyboard user would.
    for (let i = 0; i < 10; i++) {
      if ((await page.evaluate("document.activeElement?.id")) === "otp-email") break;
      await page.keyboard.press("Tab");
    }
    expect(await page.evaluate("document.activeElement?.id")).toBe("otp-email");
    await page.keyboard.type(email);
    await Promise.all([page.waitForNavigation(), page.keyboard.press("Enter")]);
    expect(await page.textContent("h1")).toBe("Check your email");
    await accessible(page, "email code");
    const code = mailCode(await nthMail(sink as NonNullable<typeof sink>, email, 1));
    await page.waitForFunction('document.activeElement?.id === "otp-code"');
    await page.keyboard.type(code);
    await Promise.all([page.waitForNavigation(), page.keyboard.press("Enter")]);
    await page.waitForSelector("#client-name");
    await Promise.all([
      page.waitForURL((u) => u.pathname === "/callback"),
      page.click("button[value=approve]"),
    ]);
    const params = oauth.validateAuthResponse(as, flow.client, new URL(page.url()), flow.state);
    const tokens = await oauth.processAuthorizationCodeResponse(
      as,
      flow.client,
      await oauth.authorizationCodeGrantRequest(
        as,
        flow.client,
        oauth.None(),
        params,
        redirectUri,
        flow.verifier,
        insecure,
      ),
    );
    const claims = oauth.getValidatedIdTokenClaims(tokens);
    expect(claims?.email).toBe(email);
    const access = JSON.parse(
      Buffer.from(tokens.access_token.split(".")[1] as string, "base64url").toString(),
    );
    expect(access.aal).toBe("aal1");
    expect(access.amr.map((entry: { method: string }) => entry.method)).toContain("otp");
    await page.close();
  });

  it("answers an unknown address as a known one, and sends it nothing", async () => {
    const flow = await startFlow();
    const tab = await requestBrowser(flow.url);
    const unknown = `nobody-${Date.now()}@example.com`;
    const known = await newUser();
    const answers = [
      await tab.post("email-code", { email: unknown }),
      await tab.post("email-code", { email: known }),
    ];
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    const [a, b] = answers.map((a) =>
      a.body
        .replace(/name="proof" value="[^"]+"/, "")
        .replaceAll(unknown, "X")
        .replaceAll(known, "X"),
    );
    expect(a).toBe(b);
    await nthMail(sink as NonNullable<typeof sink>, known, 1);
    expect((sink as NonNullable<typeof sink>).mails.some((m) => m.to.includes(unknown))).toBe(false);
  });

  it("refuses a form without its CSRF value, a wrong code, and every code after five wrong ones", async () => {
    const email = await newUser();
    const tab = await requestBrowser((await startFlow()).url);
    const forged = await fetch(`${base}/oauth/consent/email-code`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ authorization_id: tab.authorizationId, email }),
    });
    expect(forged.status).toBe(400);
    expect(await forged.text()).toContain("This form has expired");
    expect((sink as NonNullable<typeof sink>).mails.some((m) => m.to.includes(email))).toBe(false);
    const sent = await tab.post("email-code", { email });
    const proof = proofOf(sent.body);
    const code = mailCode(await nthMail(sink as NonNullable<typeof sink>, email, 1));
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(code.length, "0");
    for (let i = 0; i < 5; i++) {
      const refused = await tab.post("email-code/verify", { proof, code: wrong });
      expect(refused.status).toBe(400);
      expect(refused.body).toContain('role="alert"');
      expect(refused.body).not.toContain("client-name");
    }
    // The right code, after five wrong ones: its token is gone.
    const late = await tab.post("email-code/verify", { proof, code });
    expect(late.status).toBe(400);
    expect(late.body).not.toContain("client-name");
  });

  it("refuses a replayed code, another address's code, and a proof from another browser or altered", async () => {
    const [ann, bob] = [await newUser(), await newUser()];
    const flow = await startFlow();
    const tab = await requestBrowser(flow.url);
    const forAnn = proofOf((await tab.post("email-code", { email: ann })).body);
    const forBob = proofOf((await tab.post("email-code", { email: bob })).body);
    const annCode = mailCode(await nthMail(sink as NonNullable<typeof sink>, ann, 1));
    // Ann's code with the proof of Bob's address: the code is looked up for Bob, and refused.
    const crossed = await tab.post("email-code/verify", { proof: forBob, code: annCode });
    expect(crossed.status).toBe(400);
    expect(crossed.body).not.toContain("client-name");
    // Ann's proof and code in another browser (its own cookie and form value): the proof is this browser's.
    const other = await requestBrowser(flow.url);
    const elsewhere = await other.post("email-code/verify", { proof: forAnn, code: annCode });
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.body).toContain("This form has expired");
    // The proof with another address in it.
    const [, until, mac] = forAnn.split(".");
    const altered = `${Buffer.from(bob).toString("base64url")}.${until}.${mac}`;
    expect((await tab.post("email-code/verify", { proof: altered, code: annCode })).body).toContain(
      "This form has expired",
    );
    const signedIn = await tab.post("email-code/verify", { proof: forAnn, code: annCode });
    expect(signedIn.status).toBe(200);
    expect(signedIn.body).toContain('id="client-name"');
    const replayed = await tab.post("email-code/verify", { proof: forAnn, code: annCode });
    expect(replayed.status).toBe(400);
    expect(replayed.body).not.toContain("client-name");
  });
});

/** axe-core on the page as it is: no serious or critical violation. */
async function accessible(page: import("playwright-core").Page, name: string) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Runtime.evaluate", { expression: AXE });
  await cdp.detach();
  const found = (await page.evaluate("axe.run(document).then((r) => r.violations)")) as {
    id: string;
    impact: string;
  }[];
  const serious = found.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id);
  expect(serious, `axe on the ${name} page`).toEqual([]);
}
