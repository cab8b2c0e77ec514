import { memoryLimiterStore } from "@authsvc/adapters";
import type { CustomProvider } from "@authsvc/core/custom-providers";
import { FakeCaptcha, fakeProviders } from "@authsvc/core/testing";
import { describe, expect, it } from "vitest";
import type { RateLimits } from "../../http/middleware/rate-limit.js";
import { send } from "../../testing/requests.js";
import { testApp } from "../../testing/test-app.js";

const GOOD = "10000000-aaaa-bbbb-cccc-000000000001";
const EMAIL = "ann@example.com";
const PASSWORD = "secret-pw-long-enough";
const CLIENT_IP = { "x-forwarded-for": "203.0.113.9" };

/**
 * The built-in consent page on, a confirmed user, and a pending request of a client: `open()` opens
 * the page as a browser would, and `signIn(fields)` posts its form with the page's cookie.
 */
async function consentPage(
  overrides: Parameters<typeof testApp>[0] = {},
  request: Record<string, string> = {},
  settings: Parameters<typeof testApp>[1] = {},
) {
  const base = testApp().auth.settings;
  const t = testApp(
    { trustedProxyHops: 1, ...overrides },
    {
      signup: { ...base.signup, mailerAutoconfirm: true },
      oauthServer: { ...base.oauthServer, authorizationPath: "", builtInConsentPage: true },
      ...settings,
    },
  );
  // With a captcha on, the sign-up answers it too.
  const security = { gotrue_meta_security: { captcha_token: GOOD } };
  await send(t.app, "POST", "/signup", { email: EMAIL, password: PASSWORD, ...security });
  const registered = await send(t.app, "POST", "/oauth/clients/register", {
    redirect_uris: ["https://app.example/cb"],
    token_endpoint_auth_method: "none",
    client_name: "App",
  });
  const { client_id: clientId } = (await registered.json()) as { client_id: string };
  const started = await t.app.request(
    `/oauth/authorize?${new URLSearchParams({
      client_id: clientId,
      redirect_uri: "https://app.example/cb",
      code_challenge: "c".repeat(43),
      code_challenge_method: "S256",
      ...request,
    })}`,
  );
  const authorizationId = new URL(started.headers.get("location") as string).searchParams.get(
    "authorization_id",
  ) as string;
  const opened = await t.app.request(`/oauth/consent?authorization_id=${authorizationId}`);
  const cookie = (opened.headers.get("set-cookie") ?? "").split(";")[0] as string;
  const csrf = cookie.split("=")[1] as string;
  const signIn = async (fields: Record<string, string> = {}) => {
    const answer = await t.app.request("/oauth/consent/sign-in", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie, ...CLIENT_IP },
      body: new URLSearchParams({
        authorization_id: authorizationId,
        csrf,
        email: EMAIL,
        password: PASSWORD,
        ...fields,
      }).toString(),
    });
    return { status: answer.status, text: await answer.text() };
  };
  const post = (path: string, fields: Record<string, string>) =>
    t.app.request(path, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie, ...CLIENT_IP },
      body: new URLSearchParams({ authorization_id: authorizationId, csrf, ...fields }).toString(),
    });
  return { ...t, signIn, post, cookie, csrf, authorizationId };
}

/** The hidden fields of the page's first form that posts to `action`. */
function formFields(html: string, action: string): Record<string, string> {
  const form = html.split("<form").find((f) => f.includes(`action="${action}"`)) ?? "";
  const fields: Record<string, string> = {};
  for (const [, name = "", value = ""] of form.matchAll(/type="hidden" name="([^"]+)" value="([^"]*)"/g))
    fields[name] = value.replace(/&quot;/g, '"').replace(/&amp;/g, "&");
  return fields;
}

describe("the built-in consent page's sign-in", () => {
  it("asks the captcha that POST /token asks, from the form's token", async () => {
    const captcha = new FakeCaptcha(new Set([GOOD]));
    const { signIn } = await consentPage({ captcha });
    const none = await signIn();
    expect(none.status).toBe(400);
    expect(none.text).toContain("captcha protection: request disallowed (no captcha_token found)");
    expect(none.text).not.toContain('id="client-name"');
    const forged = await signIn({ "h-captcha-response": "forged" });
    expect(forged.status).toBe(400);
    expect(forged.text).toContain("captcha protection: request disallowed (invalid-input-response)");
    // The widgets' own field names (hCaptcha, Turnstile) and captcha_token are all read.
    for (const field of ["captcha_token", "h-captcha-response", "cf-turnstile-response"]) {
      const good = await signIn({ [field]: GOOD });
      expect(good.status, field).toBe(200);
      expect(good.text, field).toContain('id="client-name"');
    }
    expect(captcha.challenges.at(-1)).toEqual({ token: GOOD, remoteIp: "203.0.113.9" });
  });

  it("shares POST /token's per-IP count: guesses there leave none here", async () => {
    const rateLimit: RateLimits = {
      header: "X-Forwarded-For",
      tokenPer5Min: 30,
      verifyPer5Min: 30,
      otpPer5Min: 30,
      authorizePer5Min: 30,
      limiter: memoryLimiterStore().limiter,
    };
    const { app, signIn } = await consentPage({ rateLimit });
    for (let i = 0; i < 30; i++) {
      const guess = { email: EMAIL, password: `guess-${i}` };
      await send(app, "POST", "/token?grant_type=password", guess, CLIENT_IP);
    }
    const answer = await signIn();
    expect(answer.status).toBe(429);
  });

  it("names the resource the client's tokens are for, escaped, beside the scopes", async () => {
    const { signIn } = await consentPage({}, { resource: "https://files.example/<b>mcp</b>" });
    const page = await signIn();
    expect(page.status).toBe(200);
    expect(page.text).toContain(
      'for <span id="resource">https://files.example/&lt;b&gt;mcp&lt;/b&gt;</span>',
    );
    expect(page.text).not.toContain("<b>mcp");
    const plain = await (await consentPage()).signIn();
    expect(plain.text).not.toContain('id="resource"');
  });
});

describe("the authorization responses (RFC 9700)", () => {
  const ORIGIN = { origin: "https://elsewhere.example" };

  it("never lets another origin's script read /oauth/authorize or the pages, as it may other routes", async () => {
    const { app, authorizationId } = await consentPage();
    const api = await app.request("/settings", { headers: ORIGIN });
    expect(api.headers.get("access-control-allow-origin")).toBe(ORIGIN.origin);
    const authorize = await app.request("/oauth/authorize?client_id=unknown", { headers: ORIGIN });
    expect(authorize.status).toBe(400);
    // RFC 9700 §4.2: whatever page comes next is not told the authorization request's address.
    expect(authorize.headers.get("referrer-policy")).toBe("no-referrer");
    const page = await app.request(`/oauth/consent?authorization_id=${authorizationId}`, { headers: ORIGIN });
    expect(page.status).toBe(200);
    const form = await app.request("/oauth/consent/sign-in", {
      method: "POST",
      headers: { ...ORIGIN, "content-type": "application/x-www-form-urlencoded" },
      body: "",
    });
    expect(form.status).toBe(400);
    for (const answer of [authorize, page, form]) {
      expect(answer.headers.get("access-control-allow-origin")).toBeNull();
      expect(answer.headers.get("access-control-allow-credentials")).toBeNull();
    }
  });

  it("sends the browser on from the consent form with 303 and no referrer", async () => {
    const { app, signIn, cookie } = await consentPage();
    const consent = await signIn();
    expect(consent.status).toBe(200);
    const decide = (action: string) =>
      app.request("/oauth/consent/decision", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", cookie },
        body: new URLSearchParams({
          ...formFields(consent.text, "/oauth/consent/decision"),
          action,
        }).toString(),
      });
    const approved = await decide("approve");
    expect(approved.status).toBe(303);
    expect(approved.headers.get("referrer-policy")).toBe("no-referrer");
    const landing = new URL(approved.headers.get("location") as string);
    expect(`${landing.origin}${landing.pathname}`).toBe("https://app.example/cb");
    expect(landing.searchParams.get("code")).not.toBeNull();
  });
});

describe("single sign-on on the sign-in page", () => {
  it("offers the domain's form with SAML on, and names a domain no provider owns", async () => {
    const base = testApp().auth.settings;
    const on = await consentPage({}, {}, { sso: { ...base.sso, enabled: true } });
    const page = await on.app.request(`/oauth/consent?authorization_id=${on.authorizationId}`);
    expect(await page.text()).toContain('action="/oauth/consent/sso"');
    const unknown = await on.post("/oauth/consent/sso", { domain: "nobody.example" });
    expect(unknown.status).toBe(400);
    const text = await unknown.text();
    expect(text).toContain('role="alert"');
    expect(text).toMatch(/no sso provider|not found/i);
    // SAML off: no form, and its path is not served.
    const off = await consentPage({}, {}, { sso: { ...base.sso, enabled: false } });
    const plain = await off.app.request(`/oauth/consent?authorization_id=${off.authorizationId}`);
    expect(await plain.text()).not.toContain("/oauth/consent/sso");
    expect((await off.post("/oauth/consent/sso", { domain: "nobody.example" })).status).toBe(404);
  });
});

/** A custom OAuth provider as an admin adds it (`/admin/custom-providers`). */
const customProvider = (name: string, enabled: boolean): CustomProvider => ({
  id: `00000000-0000-4000-8000-00000000000${enabled ? 1 : 2}`,
  providerType: "oauth2",
  identifier: `custom:${name}`,
  name: `${name[0]?.toUpperCase()}${name.slice(1)} Cloud`,
  clientId: "client",
  sealedSecret: "sealed",
  acceptableClientIds: [],
  scopes: [],
  pkceEnabled: true,
  attributeMapping: {},
  customClaimsAllowlist: [],
  authorizationParams: {},
  enabled,
  emailOptional: false,
  issuer: null,
  discoveryUrl: null,
  skipNonceCheck: false,
  authorizationUrl: `https://${name}.example/authorize`,
  tokenUrl: `https://${name}.example/token`,
  userinfoUrl: `https://${name}.example/userinfo`,
  jwksUri: null,
  discovery: null,
  discoveryCachedAt: null,
  createdAt: new Date("2026-01-01T00:00:00Z"),
  updatedAt: new Date("2026-01-01T00:00:00Z"),
});

describe("custom providers on the sign-in page", () => {
  it("offers the enabled ones beside the built-in providers, and starts only those", async () => {
    const base = testApp().auth.settings;
    const on = await consentPage({}, {}, { customProviders: { ...base.customProviders, enabled: true } });
    await on.auth.store.customProviders.create(customProvider("acme", true), 0);
    await on.auth.store.customProviders.create(customProvider("shelved", false), 0);
    on.auth.providers = fakeProviders("custom:acme").providers;
    const page = await (await on.app.request(`/oauth/consent?authorization_id=${on.authorizationId}`)).text();
    expect(page).toContain('value="custom:acme"');
    expect(page).toContain("Acme Cloud");
    expect(page).not.toContain("custom:shelved");

    const started = await on.post("/oauth/consent/provider", { provider: "custom:acme" });
    expect(started.status).toBe(303);
    expect(started.headers.get("location")).toMatch(/^https:\/\/custom:acme\.example\/auth\?state=/);
    const shelved = await on.post("/oauth/consent/provider", { provider: "custom:shelved" });
    expect(shelved.status).toBe(400);
    expect(await shelved.text()).toContain('role="alert"');

    // Custom providers off: none is offered, whatever the store holds.
    const off = await consentPage({}, {}, { customProviders: { ...base.customProviders, enabled: false } });
    await off.auth.store.customProviders.create(customProvider("acme", true), 0);
    const plain = await (
      await off.app.request(`/oauth/consent?authorization_id=${off.authorizationId}`)
    ).text();
    expect(plain).not.toContain("custom:acme");
  });
});

describe("the built-in consent page's other paths", () => {
  it("answers an unknown one as any unknown path of the API, on or off", async () => {
    const base = testApp().auth.settings;
    const on = testApp(
      {},
      { oauthServer: { ...base.oauthServer, authorizationPath: "", builtInConsentPage: true } },
    );
    for (const { app } of [on, testApp()]) {
      const unknown = await app.request("/oauth/consent/elsewhere");
      expect(unknown.status).toBe(404);
      expect(await unknown.json()).toMatchObject({ error_code: "not_found" });
    }
    // A path of the page asked with another method: 405, on or off.
    for (const { app } of [on, testApp()]) {
      const wrong = await app.request("/oauth/consent/sign-in");
      expect(wrong.status).toBe(405);
      expect(wrong.headers.get("allow")).toBe("POST");
    }
  });
});
