import type { AuthSettings } from "@authsvc/core";
import { fakeProviders } from "@authsvc/core/testing";
import { describe, expect, it } from "vitest";
import { NEW_API, send } from "../../testing/requests.js";
import { testApp } from "../../testing/test-app.js";

const VERIFIER = "a-plain-verifier-of-at-least-forty-three-characters";
const ANN = { subject: "kc-ann", email: "ann@example.com", verified: true };

function app(settings: Partial<AuthSettings> = {}) {
  const t = testApp({}, settings);
  const idp = fakeProviders("keycloak");
  t.auth.providers = idp.providers;
  /** The browser's cookies, as `/authorize` set them (all for the `/callback` path). */
  const jar = new Map<string, string>();
  /** `/authorize` with `query`; answers the state the provider was sent. */
  async function authorize(query = "", headers: Record<string, string> = {}) {
    const res = await t.app.request(`/authorize?provider=keycloak${query}`, { headers });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toMatch(/^https:\/\/keycloak\.example\/auth\?state=/);
    for (const line of res.headers.getSetCookie()) {
      const [name = "", value = ""] = (line.split(";")[0] ?? "").split("=");
      jar.set(name, value);
    }
    return idp.requests.at(-1)?.state ?? "";
  }
  /** A request from the browser that started the flows: it carries their cookies. */
  const browser = (path: string, init: RequestInit = {}) =>
    t.app.request(path, {
      ...init,
      headers: {
        ...(init.headers as Record<string, string>),
        cookie: [...jar].map(([k, v]) => `${k}=${v}`).join("; "),
      },
    });
  const landing = (res: Response) => new URL(res.headers.get("location") ?? "");
  return { ...t, idp, authorize, browser, landing };
}

describe("GET /authorize", () => {
  it("redirects to the provider with a state, the scopes and the forwarded parameters", async () => {
    const { authorize, idp } = app();
    await authorize("&scopes=openid%20offline_access&prompt=login&client_id=evil");
    expect(idp.requests.at(-1)).toMatchObject({
      scopes: ["openid", "offline_access"],
      extraParams: { prompt: "login" },
    });
    expect(idp.requests.at(-1)?.extraParams).not.toHaveProperty("client_id");
  });

  it("refuses a disabled provider and a bad PKCE challenge with 400 validation_failed", async () => {
    const { app: a } = app();
    const res = await a.request("/authorize?provider=github", { headers: NEW_API });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      code: "validation_failed",
      message: "Unsupported provider: provider is not enabled",
    });
    const bad = await a.request(
      "/authorize?provider=keycloak&code_challenge=short&code_challenge_method=s256",
    );
    expect(bad.status).toBe(400);
  });
});

describe("GET|POST /callback", () => {
  it("lands an implicit flow on the redirect with exactly the reference's fragment fields", async () => {
    const { browser, authorize, idp, landing } = app();
    const state = await authorize("&redirect_to=http://localhost:3000/done");
    const res = await browser(`/callback?state=${state}&code=${idp.authorize(ANN)}`);
    expect(res.status).toBe(302);
    const url = landing(res);
    expect(`${url.origin}${url.pathname}`).toBe("http://localhost:3000/done");
    const fragment = new URLSearchParams(url.hash.slice(1));
    expect([...fragment.keys()]).toEqual([
      "access_token",
      "expires_at",
      "expires_in",
      "provider_refresh_token",
      "provider_token",
      "refresh_token",
      "sb",
      "token_type",
    ]);
    expect(fragment.get("provider_token")).toBe("pat-kc-ann");
    const me = await browser("/user", {
      headers: { authorization: `Bearer ${fragment.get("access_token")}` },
    });
    expect(await me.json()).toMatchObject({
      email: "ann@example.com",
      identities: [{ provider: "keycloak", id: "kc-ann" }],
    });
  });

  it("lands a PKCE flow with ?code=, exchanged for the session and the provider's tokens", async () => {
    const t = app();
    const { browser, authorize, idp, landing } = t;
    const state = await authorize(`&code_challenge=${VERIFIER}&code_challenge_method=plain`);
    const res = await browser(`/callback?state=${state}&code=${idp.authorize(ANN)}`);
    const code = landing(res).searchParams.get("code");
    expect(code).toBeTruthy();
    const token = await send(t.app, "POST", "/token?grant_type=pkce", {
      auth_code: code,
      code_verifier: VERIFIER,
    });
    expect(await token.json()).toMatchObject({
      provider_token: "pat-kc-ann",
      provider_refresh_token: "prt-kc-ann",
      user: { email: "ann@example.com", app_metadata: { provider: "keycloak" } },
    });
  });

  it("accepts the provider's answer as a form post", async () => {
    const { browser, authorize, idp, landing } = app();
    const state = await authorize();
    const body = new URLSearchParams({ state, code: idp.authorize(ANN) });
    const res = await browser("/callback", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: body.toString(),
    });
    expect(res.status).toBe(302);
    expect(new URLSearchParams(landing(res).hash.slice(1)).get("access_token")).toBeTruthy();
  });

  it("treats a body that is not a readable form as a callback without its state", async () => {
    const { app: a, landing } = app();
    const res = await a.request("/callback", {
      method: "POST",
      headers: { "content-type": "multipart/form-data" },
      body: "{}",
    });
    expect(res.status).toBe(303);
    expect(landing(res).searchParams.get("error_code")).toBe("bad_oauth_callback");
  });

  it("sends a replayed or unknown state to SITE_URL with the error in the query (303)", async () => {
    const { browser, authorize, idp, landing } = app();
    const state = await authorize();
    await browser(`/callback?state=${state}&code=${idp.authorize(ANN)}`);
    const replay = await browser(`/callback?state=${state}&code=${idp.authorize(ANN)}`);
    expect(replay.status).toBe(303);
    const url = landing(replay);
    expect(`${url.origin}${url.pathname}`).toBe("http://localhost:3000/");
    expect(Object.fromEntries(url.searchParams)).toEqual({
      error: "invalid_request",
      error_code: "bad_oauth_state",
      error_description: "OAuth state not found or expired",
    });
  });

  it("binds the flow to the starting browser's cookie: another browser is refused, the cookie cleared", async () => {
    const { app: a, browser, authorize, idp, landing, auth } = app();
    const res = await a.request("/authorize?provider=keycloak&redirect_to=http://localhost:3000/done");
    const state = idp.requests.at(-1)?.state ?? "";
    const [cookie] = res.headers.getSetCookie();
    expect(cookie).toMatch(new RegExp(`^authsvc-flow-${state}=[^;]+; `));
    expect(cookie?.split("; ").slice(1).sort()).toEqual([
      "HttpOnly",
      "Max-Age=300",
      "Path=/callback",
      "SameSite=Lax",
    ]);
    // The provider's answer opened in another browser (no cookie, or another flow's): refused.
    const other = await a.request(`/callback?state=${state}&code=${idp.authorize(ANN)}`);
    expect(other.status).toBe(302);
    expect(Object.fromEntries(landing(other).searchParams)).toEqual({
      error: "invalid_request",
      error_code: "bad_oauth_state",
      error_description: "OAuth state was not started in this browser",
    });
    expect(auth.store.tables.users.size).toBe(0);
    const second = await authorize();
    const value = cookie?.split(";")[0]?.split("=")[1] ?? "";
    const swapped = await a.request(`/callback?state=${second}&code=${idp.authorize(ANN)}`, {
      headers: { cookie: `authsvc-flow-${second}=${value}` },
    });
    expect(landing(swapped).searchParams.get("error_code")).toBe("bad_oauth_state");
    // The browser that started a flow completes it, and its cookie is dropped.
    const third = await authorize();
    const done = await browser(`/callback?state=${third}&code=${idp.authorize(ANN)}`);
    expect(landing(done).hash).toContain("access_token=");
    expect(done.headers.getSetCookie()).toEqual([
      expect.stringMatching(new RegExp(`^authsvc-flow-${third}=; Max-Age=0; `)),
    ]);
  });

  it("passes the provider's refusal on to the redirect in query and fragment (302)", async () => {
    const { browser, authorize, landing } = app();
    const state = await authorize("&redirect_to=http://localhost:3000/done");
    const res = await browser(`/callback?state=${state}&error=access_denied&error_description=denied`);
    expect(res.status).toBe(302);
    const url = landing(res);
    expect(url.searchParams.get("error")).toBe("access_denied");
    expect(Object.fromEntries(new URLSearchParams(url.hash.slice(1)))).toEqual({
      error: "access_denied",
      error_description: "denied",
      sb: "",
    });
  });

  it("answers an unverified address with access_denied and provider_email_needs_verification", async () => {
    const { browser, authorize, idp, landing, auth } = app();
    const state = await authorize();
    const res = await browser(`/callback?state=${state}&code=${idp.authorize({ ...ANN, verified: false })}`);
    const url = landing(res);
    expect(url.searchParams.get("error")).toBe("access_denied");
    expect(url.searchParams.get("error_code")).toBe("provider_email_needs_verification");
    expect(auth.mailer.sent).toHaveLength(1);
  });
});

describe("identities of the signed-in user", () => {
  async function signedIn(manualLinkingEnabled: boolean) {
    const t = app({ manualLinkingEnabled });
    const state = await t.authorize();
    const res = await t.browser(`/callback?state=${state}&code=${t.idp.authorize(ANN)}`);
    const token = new URLSearchParams(t.landing(res).hash.slice(1)).get("access_token");
    return { ...t, headers: { authorization: `Bearer ${token}` } };
  }

  it("refuses linking and unlinking with 404 manual_linking_disabled when it is off", async () => {
    const { app: a, headers } = await signedIn(false);
    const link = await a.request("/user/identities/authorize?provider=keycloak", { headers });
    expect(link.status).toBe(404);
    expect(await link.json()).toMatchObject({
      error_code: "manual_linking_disabled",
      msg: "Manual linking is disabled",
    });
    const unlink = await send(
      a,
      "DELETE",
      "/user/identities/00000000-0000-4000-8000-000000000001",
      undefined,
      headers,
    );
    expect(unlink.status).toBe(404);
  });

  it("starts linking with {url}, and refuses to unlink the only identity or an unknown one", async () => {
    const { app: a, headers, auth } = await signedIn(true);
    const link = await a.request("/user/identities/authorize?provider=keycloak&skip_http_redirect=true", {
      headers,
    });
    expect(await link.json()).toEqual({
      url: expect.stringMatching(/^https:\/\/keycloak\.example\/auth\?state=/),
    });
    // A client starts linking with its bearer token, not a browser navigation: no cookie to bind.
    expect(link.headers.getSetCookie()).toEqual([]);
    const [identity] = auth.store.tables.identities.values();
    const only = await send(a, "DELETE", `/user/identities/${identity?.id}`, undefined, headers);
    expect(only.status).toBe(422);
    expect(await only.json()).toMatchObject({ error_code: "single_identity_not_deletable" });
    const bad = await send(a, "DELETE", "/user/identities/not-a-uuid", undefined, headers);
    expect(bad.status).toBe(404);
    const unauthenticated = await send(a, "DELETE", `/user/identities/${identity?.id}`);
    expect(unauthenticated.status).toBe(401);
  });

  it("unlinks one of two identities; the user keeps the other", async () => {
    const { app: a, headers, auth } = await signedIn(true);
    const [kc] = auth.store.tables.identities.values();
    if (!kc) throw new Error("no identity");
    auth.store.tables.identities.set("email-1", {
      ...kc,
      id: "00000000-0000-4000-8000-0000000000e1",
      provider: "email",
      providerId: kc.userId,
      identityData: { email: "ann@example.com", email_verified: true },
    });
    const res = await send(a, "DELETE", `/user/identities/${kc.id}`, undefined, headers);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({});
    const me = (await (await a.request("/user", { headers })).json()) as {
      identities: { provider: string }[];
    };
    expect(me).toMatchObject({
      email: "ann@example.com",
      app_metadata: { provider: "email", providers: ["email"] },
    });
    expect(me.identities.map((i: { provider: string }) => i.provider)).toEqual(["email"]);
  });
});

describe("POST /token?grant_type=id_token", () => {
  it("answers a session for a good token and the reference's OAuth errors for bad input", async () => {
    const { app: a, idp } = app();
    const ok = await send(a, "POST", "/token?grant_type=id_token", {
      provider: "keycloak",
      id_token: idp.idToken(ANN),
    });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ token_type: "bearer", user: { email: "ann@example.com" } });
    const missing = await send(a, "POST", "/token?grant_type=id_token", { provider: "keycloak" });
    expect(missing.status).toBe(400);
    expect(await missing.json()).toEqual({
      error: "invalid request",
      error_description: "id_token required",
    });
    const forged = await send(a, "POST", "/token?grant_type=id_token", {
      provider: "keycloak",
      id_token: "forged",
    });
    expect(await forged.json()).toEqual({ error: "invalid request", error_description: "Bad ID token" });
    const nonce = await send(a, "POST", "/token?grant_type=id_token", {
      provider: "keycloak",
      id_token: idp.idToken(ANN, "h(a)"),
      nonce: "b",
    });
    expect(await nonce.json()).toEqual({ error: "invalid nonce", error_description: "Nonces mismatch" });
    const disabled = await send(
      a,
      "POST",
      "/token?grant_type=id_token",
      { provider: "google", id_token: "x" },
      NEW_API,
    );
    expect(disabled.status).toBe(400);
    expect(await disabled.json()).toEqual({
      code: "provider_disabled",
      message: 'Provider (issuer "https://accounts.google.com") is not enabled',
    });
    const link = await send(a, "POST", "/token?grant_type=id_token", {
      provider: "keycloak",
      id_token: idp.idToken(ANN),
      link_identity: true,
    });
    expect(await link.json()).toEqual({
      error: "invalid request",
      error_description: "Linking requires a valid user access token in Authorization",
    });
  });
});
