import { hexToBase64Url } from "@authsvc/core/pkce";
import { describe, expect, it } from "vitest";
import { send } from "../../testing/requests.js";
import { testApp } from "../../testing/test-app.js";

const VERIFIER = "v".repeat(64);

/** An app with the OAuth server on (fakes), a signed-in user and a public client. */
async function withClient() {
  const base = testApp().auth.settings;
  const t = testApp({}, { signup: { ...base.signup, mailerAutoconfirm: true } });
  const signup = await send(t.app, "POST", "/signup", { email: "ann@example.com", password: "secret-pw" });
  const { access_token: token, refresh_token: refreshToken } = (await signup.json()) as {
    access_token: string;
    refresh_token: string;
  };
  const registered = await send(t.app, "POST", "/oauth/clients/register", {
    redirect_uris: ["https://app.example/cb"],
    token_endpoint_auth_method: "none",
    client_name: "App",
  });
  const { client_id: clientId } = (await registered.json()) as { client_id: string };
  // S256 through the fakes' token hash, which the code exchange checks the verifier with too.
  const challenge = hexToBase64Url(t.auth.tokens.hash(VERIFIER));
  return { ...t, user: { authorization: `Bearer ${token}` }, refreshToken, clientId, challenge };
}

const form = (app: ReturnType<typeof testApp>["app"], path: string, fields: string, headers = {}) =>
  app.request(path, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
    body: fields,
  });

describe("the OAuth server's routes", () => {
  it("answers 404 feature_disabled while off, but serves OpenID discovery", async () => {
    const base = testApp().auth.settings;
    const { app } = testApp({}, { oauthServer: { ...base.oauthServer, enabled: false } });
    const token = await form(app, "/oauth/token", "grant_type=authorization_code");
    expect(token.status).toBe(404);
    expect(await token.json()).toMatchObject({
      error_code: "feature_disabled",
      msg: "OAuth server is disabled",
    });
    const discovery = await app.request("/.well-known/openid-configuration");
    expect(discovery.status).toBe(200);
    expect(await discovery.json()).toMatchObject({
      issuer: "http://localhost:9999",
      token_endpoint: "http://localhost:9999/oauth/token",
    });
  });

  it("answers client authentication failures in GoTrue's envelope, protocol failures in OAuth's", async () => {
    const { app, clientId } = await withClient();
    const noClient = await form(app, "/oauth/token", "grant_type=authorization_code&code=x");
    expect(noClient.status).toBe(400);
    expect(await noClient.json()).toMatchObject({
      error_code: "invalid_credentials",
      msg: "client_id is required",
    });
    const badBasic = await form(app, "/oauth/token", "grant_type=authorization_code", {
      authorization: "Basic !!!",
    });
    expect(badBasic.status).toBe(400);
    const noGrant = await form(app, "/oauth/token", `client_id=${clientId}`);
    expect(noGrant.status).toBe(400);
    expect(await noGrant.json()).toEqual({
      error: "invalid_request",
      error_description: "grant_type is required",
    });
    expect(noGrant.headers.get("cache-control")).toBe("no-store");
    const other = await form(app, "/oauth/token", `client_id=${clientId}&grant_type=urn:example:unknown`);
    expect(await other.json()).toMatchObject({ error: "unsupported_grant_type" });
    // client_credentials is offered here, but given by an admin: a client without it is unauthorized.
    const machine = await form(app, "/oauth/token", `client_id=${clientId}&grant_type=client_credentials`);
    expect(machine.status).toBe(400);
    expect(await machine.json()).toMatchObject({ error: "unauthorized_client" });
    // POST /token's grant types are not this endpoint's: it looks up only the OAuth server's.
    const firstParty = await form(app, "/oauth/token", `client_id=${clientId}&grant_type=password`);
    expect(firstParty.status).toBe(400);
    expect(await firstParty.json()).toMatchObject({ error: "unsupported_grant_type" });
    // Offered here, but an admin gives it: a client without it is unauthorized for it (RFC 6749 §5.2).
    const exchange = await form(
      app,
      "/oauth/token",
      `client_id=${clientId}&grant_type=${encodeURIComponent("urn:ietf:params:oauth:grant-type:token-exchange")}`,
    );
    expect(exchange.status).toBe(400);
    expect(await exchange.json()).toMatchObject({ error: "unauthorized_client" });
    const unknownCode = await form(
      app,
      "/oauth/token",
      `client_id=${clientId}&grant_type=authorization_code&code=nope`,
    );
    expect(await unknownCode.json()).toMatchObject({ error: "invalid_grant" });
    const twice = await form(
      app,
      "/oauth/token",
      `client_id=${clientId}&grant_type=authorization_code&code=a&code=b`,
    );
    expect(twice.status).toBe(400);
    const json = await send(app, "POST", "/oauth/token", {
      client_id: clientId,
      grant_type: "refresh_token",
    });
    expect(await json.json()).toEqual({
      error: "invalid_request",
      error_description: "refresh_token is required",
    });
  });

  it("refuses to refresh a first-party session for a client, which leaves it usable at /token", async () => {
    const { app, clientId, refreshToken } = await withClient();
    const asClient = await form(
      app,
      "/oauth/token",
      `client_id=${clientId}&grant_type=refresh_token&refresh_token=${refreshToken}`,
    );
    expect(asClient.status).toBe(400);
    expect(await asClient.json()).toEqual({
      error: "invalid_client",
      error_description: "Client authentication not allowed for non-OAuth session",
    });
    const own = await send(app, "POST", "/token?grant_type=refresh_token", { refresh_token: refreshToken });
    expect(own.status).toBe(200);
  });

  it("accepts an OAuth client's access token at /oauth/userinfo only, never on the user's account", async () => {
    const { app, user, clientId, challenge } = await withClient();
    const started = await app.request(
      `/oauth/authorize?client_id=${clientId}&redirect_uri=${encodeURIComponent("https://app.example/cb")}&scope=email&code_challenge=${challenge}&code_challenge_method=S256`,
    );
    const id = new URL(started.headers.get("location") as string).searchParams.get("authorization_id");
    await app.request(`/oauth/authorizations/${id}`, { headers: user });
    const approved = await send(
      app,
      "POST",
      `/oauth/authorizations/${id}/consent`,
      { action: "approve" },
      user,
    );
    const { redirect_url: landing } = (await approved.json()) as { redirect_url: string };
    const exchanged = await send(app, "POST", "/oauth/token", {
      grant_type: "authorization_code",
      code: new URL(landing).searchParams.get("code"),
      code_verifier: VERIFIER,
      client_id: clientId,
    });
    const { access_token: token } = (await exchanged.json()) as { access_token: string };
    const asClient = { authorization: `Bearer ${token}` };
    // Granted `email`, the client must not take the account over: password, factors, identities, sessions.
    for (const [method, path, body] of [
      ["PUT", "/user", { password: "taken-over-pw" }],
      ["GET", "/user", undefined],
      ["POST", "/factors", { factor_type: "totp" }],
      ["GET", "/reauthenticate", undefined],
      ["POST", "/logout?scope=global", undefined],
      ["GET", "/user/sessions", undefined],
      ["GET", "/user/oauth/grants", undefined],
    ] as const) {
      const answer = await send(app, method, path, body, asClient);
      expect(answer.status, `${method} ${path}`).toBe(403);
      expect(await answer.json(), `${method} ${path}`).toMatchObject({ error_code: "bad_jwt" });
    }
    expect((await app.request("/oauth/userinfo", { headers: asClient })).status).toBe(200);
    const signIn = await send(app, "POST", "/token?grant_type=password", {
      email: "ann@example.com",
      password: "secret-pw",
    });
    expect(signIn.status).toBe(200);
  });

  it("shows the resource a request names, and asks again for a resource the user has not approved", async () => {
    const { app, user, clientId, challenge } = await withClient();
    const FILES = "https://files.example/mcp";
    const open = async (resource?: string) => {
      const query = new URLSearchParams({
        client_id: clientId,
        redirect_uri: "https://app.example/cb",
        scope: "openid",
        code_challenge: challenge,
        code_challenge_method: "S256",
        ...(resource ? { resource } : {}),
      });
      const started = await app.request(`/oauth/authorize?${query}`);
      const id = new URL(started.headers.get("location") as string).searchParams.get("authorization_id");
      const answer = await app.request(`/oauth/authorizations/${id}`, { headers: user });
      return { id, body: (await answer.json()) as Record<string, unknown> };
    };
    const first = await open();
    expect(first.body).toMatchObject({ scope: "openid", resource: null });
    await send(app, "POST", `/oauth/authorizations/${first.id}/consent`, { action: "approve" }, user);
    // The consent to `openid` alone is no consent to the files server: the user is asked, and shown it.
    const files = await open(FILES);
    expect(files.body).toMatchObject({ scope: "openid", resource: FILES });
    expect(files.body).not.toHaveProperty("redirect_url");
    await send(app, "POST", `/oauth/authorizations/${files.id}/consent`, { action: "approve" }, user);
    expect((await open(FILES)).body).toHaveProperty("redirect_url");
    // The user's list of grants says what the client may reach.
    const grants = await app.request("/user/oauth/grants", { headers: user });
    expect(await grants.json()).toMatchObject([{ scopes: ["openid"], resources: [FILES] }]);
  });

  it("refuses a consent call from an origin outside the allow-list", async () => {
    const { app, user, clientId, challenge } = await withClient();
    const started = await app.request(
      `/oauth/authorize?client_id=${clientId}&redirect_uri=${encodeURIComponent("https://app.example/cb")}&code_challenge=${challenge}&code_challenge_method=S256`,
    );
    expect(started.status).toBe(302);
    const id = new URL(started.headers.get("location") as string).searchParams.get("authorization_id");
    const evil = await app.request(`/oauth/authorizations/${id}`, {
      headers: { ...user, origin: "https://evil.example" },
    });
    expect(evil.status).toBe(400);
    expect(await evil.json()).toMatchObject({ msg: "unauthorized request origin" });
    const own = await app.request(`/oauth/authorizations/${id}`, {
      headers: { ...user, origin: "http://localhost:3000" },
    });
    expect(own.status).toBe(200);
    expect(await own.json()).toMatchObject({
      client: { id: clientId, name: "App" },
      user: { email: "ann@example.com" },
    });
    const bad = await send(app, "POST", `/oauth/authorizations/${id}/consent`, { action: "maybe" }, user);
    expect(bad.status).toBe(400);
    const approved = await send(
      app,
      "POST",
      `/oauth/authorizations/${id}/consent`,
      { action: "approve" },
      user,
    );
    expect(await approved.json()).toMatchObject({
      redirect_url: expect.stringMatching(/^https:\/\/app\.example\/cb\?code=/),
    });
  });

  it("lists and revokes the user's grants", async () => {
    const { app, user, clientId } = await withClient();
    expect(await (await app.request("/user/oauth/grants", { headers: user })).json()).toEqual([]);
    const missing = await app.request("/user/oauth/grants", { method: "DELETE", headers: user });
    expect(missing.status).toBe(400);
    const none = await app.request(`/user/oauth/grants?client_id=${clientId}`, {
      method: "DELETE",
      headers: user,
    });
    expect(none.status).toBe(404);
    expect(await none.json()).toMatchObject({ error_code: "oauth_consent_not_found" });
  });

  it("serves the built-in consent page only when it is on", async () => {
    const { app } = testApp();
    expect((await app.request("/oauth/consent?authorization_id=x")).status).toBe(404);
    const base = testApp().auth.settings;
    const on = testApp(
      {},
      { oauthServer: { ...base.oauthServer, authorizationPath: "", builtInConsentPage: true } },
    );
    const page = await on.app.request("/oauth/consent?authorization_id=x");
    expect(page.status).toBe(200);
    expect(page.headers.get("x-frame-options")).toBe("DENY");
    expect(page.headers.get("set-cookie")).toMatch(/SameSite=Strict/);
    const noCookie = await form(
      on.app,
      "/oauth/consent/sign-in",
      "authorization_id=x&csrf=y&email=a%40b.c&password=p",
    );
    expect(noCookie.status).toBe(400);
  });
});
