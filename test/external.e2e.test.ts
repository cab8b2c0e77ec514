import { createHash, randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type FreshNamespace, migratedNamespace } from "@authsvc/adapters/testing";
import { productionServerEnv } from "@authsvc/http/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browserClient } from "./support/browser-client.js";
import { oauthBrowser } from "./support/oauth-browser.js";
import { OP_CLIENT, type OpenIdProvider, startOpenIdProvider } from "./support/openid-provider.js";
import { type ServerProcess, startServer } from "./support/server-process.js";

/**
 * External sign-in end to end: the server process with its Keycloak provider pointed at a real OpenID
 * Provider (`oidc-provider`) on 127.0.0.1, driven through auth-js. The test is the browser: it follows
 * the redirects, fills in the provider's login form and answers its consent page.
 */
let ns: FreshNamespace;
let op: OpenIdProvider;
let server: ServerProcess;
const cwd = mkdtempSync(join(tmpdir(), "authsvc-external-"));
// The redirect URI registered at the provider: the public address (API_EXTERNAL_URL) of /callback.
const CALLBACK = "http://localhost:9999/callback";
const WELCOME = "http://localhost:3000/welcome";

beforeAll(async () => {
  ns = await migratedNamespace();
  op = await startOpenIdProvider([CALLBACK]);
  server = await startServer(
    productionServerEnv(ns, {
      AUTHSVC_EXTERNAL_KEYCLOAK_ENABLED: "true",
      AUTHSVC_EXTERNAL_KEYCLOAK_CLIENT_ID: OP_CLIENT.id,
      AUTHSVC_EXTERNAL_KEYCLOAK_SECRET: OP_CLIENT.secret,
      AUTHSVC_EXTERNAL_KEYCLOAK_URL: op.realm,
      AUTHSVC_MAILER_AUTOCONFIRM: "true",
      AUTHSVC_SECURITY_MANUAL_LINKING_ENABLED: "true",
    }),
    { cwd },
  );
  browser = oauthBrowser({
    serverUrl: server.url,
    providerOrigin: new URL(op.realm).origin,
    callbackUrl: CALLBACK,
  });
}, 60_000);

afterAll(async () => {
  await server?.stop();
  await op?.close();
  await ns?.drop();
  rmSync(cwd, { recursive: true, force: true });
});

function client(flowType: "implicit" | "pkce" = "implicit") {
  return browserClient(server.url, flowType).client;
}

let counter = 0;
const login = (tag: string) => `${tag}-${Date.now()}-${++counter}`;

/** The browser every test drives (one machine, its cookies kept). */
let browser: ReturnType<typeof oauthBrowser>;
const throughProvider: ReturnType<typeof oauthBrowser>["throughProvider"] = (...args) =>
  browser.throughProvider(...args);
const callback: ReturnType<typeof oauthBrowser>["callback"] = (...args) => browser.callback(...args);

const fragment = (landing: URL) => Object.fromEntries(new URLSearchParams(landing.hash.slice(1)));

describe("signInWithOAuth through a real OpenID Provider", () => {
  it("implicit flow: consent, then the session in the fragment works on GET /user", async () => {
    const account = login("ann");
    const auth = client();
    const { data } = await auth.signInWithOAuth({
      provider: "keycloak",
      options: { redirectTo: WELCOME, scopes: "openid", skipBrowserRedirect: true },
    });
    const { status, landing } = await callback(await throughProvider(data.url ?? "", account));
    expect(status).toBe(302);
    expect(`${landing.origin}${landing.pathname}`).toBe(WELCOME);
    const params = fragment(landing);
    expect(Object.keys(params).sort()).toEqual([
      "access_token",
      "expires_at",
      "expires_in",
      "provider_token",
      "refresh_token",
      "sb",
      "token_type",
    ]);
    const { data: me, error } = await auth.getUser(params.access_token);
    expect(error).toBeNull();
    expect(me.user).toMatchObject({
      email: `${account}@example.com`,
      email_confirmed_at: expect.any(String),
      app_metadata: { provider: "keycloak", providers: ["keycloak"] },
      user_metadata: { name: `Person ${account}`, email_verified: true },
      identities: [{ provider: "keycloak", id: account }],
    });
  });

  it("PKCE flow: the landing's ?code= is exchanged by exchangeCodeForSession; a wrong verifier is refused", async () => {
    const account = login("pkce");
    const auth = client("pkce");
    const { data } = await auth.signInWithOAuth({
      provider: "keycloak",
      options: { redirectTo: WELCOME, scopes: "openid", skipBrowserRedirect: true },
    });
    expect(new URL(data.url ?? "").searchParams.get("code_challenge_method")).toBe("s256");
    const { landing } = await callback(await throughProvider(data.url ?? "", account));
    const code = landing.searchParams.get("code") ?? "";
    const wrong = await fetch(`${server.url}/token?grant_type=pkce`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ auth_code: code, code_verifier: "w".repeat(43) }),
    });
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toMatchObject({ error_code: "bad_code_verifier" });
    const flowId = landing.searchParams.get("sb_flow_id");
    const done = await auth.exchangeCodeForSession(code, flowId ? { flowId } : undefined);
    expect(done.error).toBeNull();
    expect(done.data.session?.provider_token).toEqual(expect.any(String));
    expect((await auth.getUser()).data.user?.email).toBe(`${account}@example.com`);
  });

  it("error paths: consent denied, a replayed state, a replayed code, an unknown state", async () => {
    const auth = client();
    const start = async () =>
      (
        await auth.signInWithOAuth({
          provider: "keycloak",
          options: { redirectTo: WELCOME, scopes: "openid", skipBrowserRedirect: true },
        })
      ).data.url ?? "";
    const denied = await callback(await throughProvider(await start(), login("deny"), "deny"));
    expect(denied.status).toBe(302);
    expect(denied.landing.searchParams.get("error")).toBe("access_denied");
    expect(fragment(denied.landing)).toMatchObject({
      error: "access_denied",
      error_description: "End-User aborted interaction",
    });

    const back = await throughProvider(await start(), login("replay"));
    expect((await callback(back)).status).toBe(302);
    const replayedState = await callback(back);
    expect(replayedState.status).toBe(303);
    expect(replayedState.landing.searchParams.get("error_code")).toBe("bad_oauth_state");

    // The old code with a fresh state: the provider refuses to exchange it a second time.
    const authorize = await browser.visit(await start());
    const fresh = new URL(authorize.headers.get("location") ?? "");
    expect(fresh.origin).toBe(new URL(op.realm).origin);
    const replayedCode = await browser.visit(
      `${server.url}/callback?state=${fresh.searchParams.get("state")}&code=${back.searchParams.get("code")}`,
    );
    const landing = new URL(replayedCode.headers.get("location") ?? "");
    expect(Object.fromEntries(landing.searchParams)).toMatchObject({
      error: "server_error",
      error_code: "unexpected_failure",
      error_description: expect.stringMatching(/^Unable to exchange external code/),
    });

    const unknown = await fetch(`${server.url}/callback?state=${crypto.randomUUID()}&code=x`, {
      redirect: "manual",
    });
    expect(unknown.status).toBe(303);
    expect(new URL(unknown.headers.get("location") ?? "").origin).toBe("http://localhost:3000");
  });
});

describe("signInWithIdToken and identity linking with the same provider", () => {
  /** An ID token the provider issues to the client for `account`, with the hashed `nonce` in it. */
  async function idTokenFor(account: string, nonce: string): Promise<string> {
    const authorize = new URL(`${op.realm}/protocol/openid-connect/auth`);
    authorize.search = new URLSearchParams({
      client_id: OP_CLIENT.id,
      redirect_uri: CALLBACK,
      response_type: "code",
      scope: "openid email profile",
      state: "s",
      nonce: createHash("sha256").update(nonce).digest("hex"),
    }).toString();
    const back = await throughProvider(authorize.toString(), account);
    const res = await fetch(`${op.realm}/protocol/openid-connect/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: "authorization_code",
        code: back.searchParams.get("code") ?? "",
        redirect_uri: CALLBACK,
        client_id: OP_CLIENT.id,
        client_secret: OP_CLIENT.secret,
      }),
    });
    const body = (await res.json()) as { id_token?: string };
    expect(body.id_token).toEqual(expect.any(String));
    return body.id_token ?? "";
  }

  it("signs in with the provider's ID token and the raw nonce; a wrong nonce is refused", async () => {
    const account = login("idt");
    const nonce = randomBytes(16).toString("hex");
    const token = await idTokenFor(account, nonce);
    const wrong = await client().signInWithIdToken({ provider: "keycloak", token, nonce: "another" });
    expect(wrong.error?.message).toBe("Nonces mismatch");
    const auth = client();
    const { data, error } = await auth.signInWithIdToken({ provider: "keycloak", token, nonce });
    expect(error).toBeNull();
    expect(data.user?.email).toBe(`${account}@example.com`);
    expect(data.user?.identities).toMatchObject([{ provider: "keycloak", id: account }]);
  });

  it("links the provider's identity to a signed-in password user, then unlinks it", async () => {
    const auth = client();
    const email = `${login("linker")}@example.org`;
    expect((await auth.signUp({ email, password: "secret-pw" })).error).toBeNull();
    const { data } = await auth.linkIdentity({
      provider: "keycloak",
      options: { redirectTo: WELCOME, scopes: "openid", skipBrowserRedirect: true },
    });
    const account = login("linked");
    const { landing } = await callback(await throughProvider(data.url ?? "", account));
    const params = fragment(landing);
    expect(params.access_token).toBeTruthy();
    const me = await auth.getUser(params.access_token);
    expect(me.data.user?.email).toBe(email);
    const identities = await auth.getUserIdentities();
    expect(identities.data?.identities.map((i) => i.provider).sort()).toEqual(["email", "keycloak"]);
    const keycloak = identities.data?.identities.find((i) => i.provider === "keycloak");
    if (!keycloak) throw new Error("no keycloak identity");
    expect((await auth.unlinkIdentity(keycloak)).error).toBeNull();
    const after = await auth.getUserIdentities();
    expect(after.data?.identities.map((i) => i.provider)).toEqual(["email"]);
    // The same provider account cannot be linked twice to different users.
    const other = client();
    expect(
      (await other.signUp({ email: `${login("other")}@example.org`, password: "secret-pw" })).error,
    ).toBeNull();
    await auth.signInWithPassword({ email, password: "secret-pw" });
    const again = await auth.linkIdentity({
      provider: "keycloak",
      options: { scopes: "openid", skipBrowserRedirect: true },
    });
    const relinked = await callback(await throughProvider(again.data.url ?? "", account));
    expect(relinked.landing.hash).toContain("access_token");
    const twice = await other.linkIdentity({
      provider: "keycloak",
      options: { scopes: "openid", skipBrowserRedirect: true },
    });
    const refused = await callback(await throughProvider(twice.data.url ?? "", account));
    expect(refused.landing.searchParams.get("error_code")).toBe("identity_already_exists");
  });
});
