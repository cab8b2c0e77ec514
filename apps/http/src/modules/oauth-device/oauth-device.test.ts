import { describe, expect, it } from "vitest";
import { bearer, send } from "../../testing/requests.js";
import { freshConfig, testApp } from "../../testing/test-app.js";

const DEVICE = "urn:ietf:params:oauth:grant-type:device_code";
const FORM = { "content-type": "application/x-www-form-urlencoded" };

/** The OAuth server on, a public client registered for the device grant (and one that is not). */
async function setup(limits: { perClient?: number; total?: number } = {}) {
  const config = freshConfig();
  const t = testApp({
    trustedProxyHops: 1,
    config: {
      ...config,
      oauthDevice: {
        ...config.oauthDevice,
        verifyPerClientPer5Min: limits.perClient ?? 10,
        verifyTotalPer5Min: limits.total ?? 1000,
      },
    },
  });
  const register = async (grant_types: string[]) => {
    const answer = await send(t.app, "POST", "/oauth/clients/register", {
      redirect_uris: ["https://app.example/cb"],
      token_endpoint_auth_method: "none",
      client_name: "TV",
      grant_types,
    });
    return ((await answer.json()) as { client_id: string }).client_id;
  };
  const clientId = await register([DEVICE]);
  const codeOnly = await register(["authorization_code"]);
  const start = (fields: Record<string, string> = {}) =>
    t.app.request("/oauth/device_authorization", {
      method: "POST",
      headers: FORM,
      body: new URLSearchParams({ client_id: clientId, ...fields }).toString(),
    });
  const poll = (deviceCode: string, client = clientId) =>
    t.app.request("/oauth/token", {
      method: "POST",
      headers: FORM,
      body: new URLSearchParams({
        grant_type: DEVICE,
        device_code: deviceCode,
        client_id: client,
      }).toString(),
    });
  /** Opens the page as a browser, then submits `userCode` from `ip` with the page's cookie. */
  const submit = async (userCode: string, ip = "203.0.113.9", withCookie = true) => {
    const opened = await t.app.request("/oauth/device");
    const cookie = (opened.headers.get("set-cookie") ?? "").split(";")[0] as string;
    const csrf = cookie.split("=")[1] as string;
    return t.app.request("/oauth/device", {
      method: "POST",
      headers: { ...FORM, "x-forwarded-for": ip, ...(withCookie ? { cookie } : {}) },
      body: new URLSearchParams({ user_code: userCode, csrf }).toString(),
    });
  };
  return { ...t, clientId, codeOnly, start, poll, submit };
}

describe("POST /oauth/device_authorization", () => {
  it("answers RFC 8628 §3.2's fields, uncached", async () => {
    const { start } = await setup();
    const answer = await start({ scope: "openid email" });
    expect(answer.status).toBe(200);
    expect(answer.headers.get("cache-control")).toBe("no-store");
    const body = (await answer.json()) as Record<string, unknown>;
    expect(body).toMatchObject({
      user_code: expect.stringMatching(/^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/),
      verification_uri: expect.stringMatching(/\/oauth\/device$/),
      expires_in: 600,
      interval: 5,
    });
    expect(body.verification_uri_complete).toBe(
      `${body.verification_uri}?user_code=${encodeURIComponent(body.user_code as string)}`,
    );
  });

  it("refuses a client without the grant, an unknown client, and a scope /oauth/authorize refuses", async () => {
    const { start, codeOnly } = await setup();
    const refused = await start({ client_id: codeOnly });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ error: "unauthorized_client" });
    expect((await start({ scope: "admin" })).status).toBe(400);
    expect(await (await start({ scope: "admin" })).json()).toMatchObject({ error: "invalid_scope" });
    const unknown = await start({ client_id: "00000000-0000-4000-8000-00000000dead" });
    expect(unknown.status).toBe(400);
    expect(await unknown.json()).toMatchObject({ error_code: "invalid_credentials" });
  });

  it("is advertised in the metadata", async () => {
    const { app } = await setup();
    const metadata = (await (await app.request("/.well-known/oauth-authorization-server")).json()) as Record<
      string,
      unknown
    >;
    expect(metadata.device_authorization_endpoint).toMatch(/\/oauth\/device_authorization$/);
    expect(metadata.grant_types_supported).toContain(DEVICE);
  });
});

describe("the verification page", () => {
  it("is a form that cannot be framed, runs no script, and sets a SameSite=Strict cookie", async () => {
    const { app } = await setup();
    const page = await app.request("/oauth/device?user_code=BCDF-GHJK");
    expect(page.status).toBe(200);
    expect(page.headers.get("x-frame-options")).toBe("DENY");
    const csp = page.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("default-src 'none'");
    expect(csp).not.toContain("unsafe-inline");
    expect(csp).toContain("script-src 'self'");
    expect(page.headers.get("set-cookie")).toMatch(/HttpOnly/i);
    expect(page.headers.get("set-cookie")).toMatch(/SameSite=Strict/i);
    const text = await page.text();
    expect(text).not.toContain("<script");
    expect(text).toContain('value="BCDF-GHJK"');
  });

  it("leads a right code, however typed, to the consent page; refuses wrong ones alike", async () => {
    const { start, submit } = await setup();
    const { user_code } = (await (await start()).json()) as { user_code: string };
    const right = await submit(` ${user_code.toLowerCase().replace("-", " ")} `);
    expect(right.status).toBe(303);
    expect(right.headers.get("location")).toMatch(/\/oauth\/consent\?authorization_id=[0-9a-f]{32}$/);
    const wrong = await submit("BBBB-BBBB");
    const malformed = await submit("<b>x</b>");
    expect([wrong.status, malformed.status]).toEqual([400, 400]);
    const said = (text: string) => /<p class="error"[^>]*>([^<]*)<\/p>/.exec(text)?.[1];
    expect(said(await wrong.text())).toBe(said(await malformed.text()));
  });

  it("refuses a submission without the page's cookie (another site's form)", async () => {
    const { start, submit } = await setup();
    const { user_code } = (await (await start()).json()) as { user_code: string };
    const answer = await submit(user_code, "203.0.113.9", false);
    expect(answer.status).toBe(400);
    expect(await answer.text()).toContain("This form has expired");
  });

  it("counts submissions per client address and in all, right or wrong", async () => {
    const perClient = await setup({ perClient: 3 });
    for (let i = 0; i < 3; i++) expect((await perClient.submit("BBBB-BBBB")).status).toBe(400);
    const { user_code } = (await (await perClient.start()).json()) as { user_code: string };
    expect((await perClient.submit(user_code)).status).toBe(429);
    expect((await perClient.submit(user_code, "198.51.100.7")).status).toBe(303);
    const total = await setup({ total: 2 });
    expect((await total.submit("BBBB-BBBB", "198.51.100.1")).status).toBe(400);
    expect((await total.submit("BBBB-BBBB", "198.51.100.2")).status).toBe(400);
    expect((await total.submit("BBBB-BBBB", "198.51.100.3")).status).toBe(429);
  });
});

describe("polling POST /oauth/token", () => {
  it("answers authorization_pending, then slow_down; another client's poll is invalid_grant", async () => {
    const { start, poll, codeOnly, clientId } = await setup();
    const { device_code } = (await (await start()).json()) as { device_code: string };
    const first = await poll(device_code);
    expect(first.status).toBe(400);
    expect(await first.json()).toMatchObject({ error: "authorization_pending" });
    expect(await (await poll(device_code)).json()).toMatchObject({ error: "slow_down" });
    // A client not registered for the grant is refused before the code is looked at: the endpoint
    // offers the grant type, the client was not given it (RFC 6749 §5.2).
    expect(await (await poll(device_code, codeOnly)).json()).toMatchObject({
      error: "unauthorized_client",
    });
    expect(await (await poll("nope", clientId)).json()).toMatchObject({ error: "invalid_grant" });
  });
});

describe("the admin API and the device grant", () => {
  it("sets a client's grant types to the device grant, and answers them back", async () => {
    const { app, auth } = await setup();
    const admin = await bearer(auth, { role: "service_role" });
    const body = { redirect_uris: ["https://app.example/cb"], token_endpoint_auth_method: "none" };
    const created = await send(app, "POST", "/admin/oauth/clients", body, admin);
    const { client_id, grant_types } = (await created.json()) as { client_id: string; grant_types: string[] };
    // Never given by default.
    expect(grant_types).toEqual(["authorization_code", "refresh_token"]);
    const changed = await send(
      app,
      "PUT",
      `/admin/oauth/clients/${client_id}`,
      { grant_types: [DEVICE] },
      admin,
    );
    expect(await changed.json()).toMatchObject({ grant_types: [DEVICE] });
    const started = await app.request("/oauth/device_authorization", {
      method: "POST",
      headers: FORM,
      body: new URLSearchParams({ client_id }).toString(),
    });
    expect(started.status).toBe(200);
  });
});
