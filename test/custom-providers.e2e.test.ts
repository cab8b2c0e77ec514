import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type FreshNamespace, migratedNamespace } from "@authsvc/adapters/testing";
import { productionServerEnv, roleKey } from "@authsvc/http/testing";
import { GoTrueAdminApi } from "@supabase/auth-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browserClient } from "./support/browser-client.js";
import { idTokenFor, oauth2ProviderBody, oidcProviderBody } from "./support/custom-provider-fixtures.js";
import { oauthBrowser } from "./support/oauth-browser.js";
import { OP_CLIENT, type OpenIdProvider, startOpenIdProvider } from "./support/openid-provider.js";
import { type ServerProcess, startServer } from "./support/server-process.js";

/**
 * Custom providers end to end: the admin adds providers through auth-js (`auth.admin.customProviders`),
 * and people sign in with them through a real OpenID Provider (`oidc-provider`) on 127.0.0.1, which the
 * test switch `CUSTOM_OAUTH_ALLOW_LOOPBACK_FOR_TESTS` lets the server reach. The test is the browser.
 */
let ns: FreshNamespace;
let op: OpenIdProvider;
let server: ServerProcess;
let admin: GoTrueAdminApi;
let browser: ReturnType<typeof oauthBrowser>;
const cwd = mkdtempSync(join(tmpdir(), "authsvc-custom-"));
const CALLBACK = "http://localhost:9999/callback";
const WELCOME = "http://localhost:3000/welcome";

beforeAll(async () => {
  ns = await migratedNamespace();
  op = await startOpenIdProvider([CALLBACK]);
  server = await startServer(
    productionServerEnv(ns, { AUTHSVC_CUSTOM_OAUTH_ALLOW_LOOPBACK_FOR_TESTS: "true" }),
    { cwd },
  );
  admin = new GoTrueAdminApi({
    url: server.url,
    headers: { Authorization: `Bearer ${await roleKey("service_role")}` },
  });
  browser = oauthBrowser({
    serverUrl: server.url,
    providerOrigin: new URL(op.realm).origin,
    callbackUrl: CALLBACK,
  });
  const created = await admin.customProviders.createProvider(
    oidcProviderBody(op, "custom:acme", {
      custom_claims_allowlist: ["preferred_username", "absent_claim"],
      // A string names a standard claim; any other value is a literal.
      attribute_mapping: { nickname: "preferred_username", tier: 3, level: "no_such_claim" },
    }),
  );
  expect(created.error).toBeNull();
  const plain = await admin.customProviders.createProvider(oauth2ProviderBody(op, "custom:plain"));
  expect(plain.error).toBeNull();
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
const fragment = (landing: URL) => Object.fromEntries(new URLSearchParams(landing.hash.slice(1)));

/** Signs `account` in with `provider` in the browser; the landing page's URL. */
async function signIn(
  provider: `custom:${string}`,
  account: string,
  flowType: "implicit" | "pkce" = "implicit",
) {
  const auth = client(flowType);
  const { data } = await auth.signInWithOAuth({
    provider,
    options: { redirectTo: WELCOME, skipBrowserRedirect: true },
  });
  const { landing } = await browser.callback(await browser.throughProvider(data.url ?? "", account));
  return { auth, landing };
}

describe("the admin's custom providers through auth-js", () => {
  it("creates an OpenID provider from its discovery document; the secret is never answered", async () => {
    const { data, error } = await admin.customProviders.getProvider("custom:acme");
    expect(error).toBeNull();
    expect(data).toMatchObject({
      provider_type: "oidc",
      identifier: "custom:acme",
      client_id: OP_CLIENT.id,
      issuer: op.realm,
      scopes: ["openid", "email", "profile"],
      pkce_enabled: true,
      enabled: true,
      email_optional: false,
      skip_nonce_check: false,
      discovery_document: {
        issuer: op.realm,
        authorization_endpoint: `${op.realm}/protocol/openid-connect/auth`,
        token_endpoint: `${op.realm}/protocol/openid-connect/token`,
        jwks_uri: `${op.realm}/protocol/openid-connect/certs`,
      },
    });
    const list = (await admin.customProviders.listProviders()).data;
    const updated = (await admin.customProviders.updateProvider("custom:acme", { name: "Acme Inc." })).data;
    for (const answer of [data, list, updated])
      expect(JSON.stringify(answer)).not.toContain(OP_CLIENT.secret);
    const providers = [data, ...list.providers, updated];
    expect(providers).toHaveLength(4);
    for (const provider of providers) expect(provider).not.toHaveProperty("client_secret");
    expect((await admin.customProviders.getProvider("custom:acme")).data?.name).toBe("Acme Inc.");
  });

  it("lists by type; keeps the secret sealed, bound to the provider's id, in the table", async () => {
    const oidc = await admin.customProviders.listProviders({ type: "oidc" });
    expect(oidc.data.providers.map((p) => p.identifier)).toEqual(["custom:acme"]);
    const oauth2 = await admin.customProviders.listProviders({ type: "oauth2" });
    expect(oauth2.data.providers.map((p) => p.identifier)).toEqual(["custom:plain"]);
    const rows = await ns.sql<{ id: string; client_secret: string }[]>`
      select id, client_secret from ${ns.sql(ns.namespace)}.custom_oauth_providers`;
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      expect(row.client_secret).not.toContain(OP_CLIENT.secret);
      expect(JSON.parse(row.client_secret)).toMatchObject({ alg: "aes-gcm-hkdf", key_id: "jwt_secret" });
    }
  });
});

describe("signing in with a custom provider", () => {
  it("OpenID: discovery's endpoints, S256 PKCE toward the provider, the verified ID token, mapping", async () => {
    const auth = client();
    const { data } = await auth.signInWithOAuth({
      provider: "custom:acme",
      options: { redirectTo: WELCOME, skipBrowserRedirect: true },
    });
    const start = await fetch(data.url ?? "", { redirect: "manual" });
    const upstream = new URL(start.headers.get("location") ?? "");
    expect(`${upstream.origin}${upstream.pathname}`).toBe(`${op.realm}/protocol/openid-connect/auth`);
    expect(upstream.searchParams.get("code_challenge_method")).toBe("S256");
    expect(upstream.searchParams.get("code_challenge")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(upstream.searchParams.get("redirect_uri")).toBe(CALLBACK);
    expect(upstream.searchParams.get("scope")).toBe("openid email profile");

    const account = login("ann");
    const { landing } = await signIn("custom:acme", account);
    const params = fragment(landing);
    expect(params.access_token, landing.toString()).toBeTruthy();
    const me = await client().getUser(params.access_token);
    expect(me.error).toBeNull();
    expect(me.data.user).toMatchObject({
      email: `${account}@example.com`,
      email_confirmed_at: expect.any(String),
      app_metadata: { provider: "custom:acme", providers: ["custom:acme"] },
      user_metadata: {
        sub: account,
        email_verified: true,
        nickname: account,
        tier: 3,
        custom_claims: { preferred_username: account },
      },
      identities: [{ provider: "custom:acme", id: account }],
    });
    // A claim the mapping names that the provider did not send writes nothing.
    expect(me.data.user?.user_metadata).not.toHaveProperty("level");
    expect(me.data.user?.user_metadata.custom_claims).not.toHaveProperty("absent_claim");
  });

  it("OAuth 2.0: the person from the user info endpoint, in the PKCE flow of auth-js", async () => {
    const account = login("bob");
    const { auth, landing } = await signIn("custom:plain", account, "pkce");
    const code = landing.searchParams.get("code") ?? "";
    expect(code, landing.toString()).not.toBe("");
    const done = await auth.exchangeCodeForSession(code);
    expect(done.error).toBeNull();
    expect(done.data.user).toMatchObject({
      email: `${account}@example.com`,
      identities: [{ provider: "custom:plain", id: account }],
    });
  });

  it("the id_token grant accepts an OpenID provider's token (and nonce), not an OAuth 2.0 provider's", async () => {
    const account = login("idt");
    const nonce = randomBytes(16).toString("hex");
    const token = await idTokenFor(op, browser, CALLBACK, account, nonce);
    const refused = await client().signInWithIdToken({ provider: "custom:plain", token, nonce });
    expect(refused.error?.status).toBe(400);
    const wrong = await client().signInWithIdToken({ provider: "custom:acme", token, nonce: "another" });
    expect(wrong.error?.message).toBe("Nonces mismatch");
    const { data, error } = await client().signInWithIdToken({ provider: "custom:acme", token, nonce });
    expect(error).toBeNull();
    expect(data.user?.identities).toMatchObject([{ provider: "custom:acme", id: account }]);
  });

  it("an ID token's audience must be the client id or one of acceptable_client_ids", async () => {
    const other = { client_id: "another-client" };
    const accepting = await admin.customProviders.createProvider(
      oidcProviderBody(op, "custom:aud-yes", { ...other, acceptable_client_ids: [OP_CLIENT.id] }),
    );
    expect(accepting.error).toBeNull();
    expect(
      (await admin.customProviders.createProvider(oidcProviderBody(op, "custom:aud-no", other))).error,
    ).toBeNull();
    const account = login("aud");
    const nonce = randomBytes(16).toString("hex");
    const token = await idTokenFor(op, browser, CALLBACK, account, nonce);
    const refused = await client().signInWithIdToken({ provider: "custom:aud-no", token, nonce });
    expect(refused.error).toMatchObject({
      status: 400,
      message: `Unacceptable audience in id_token: [${OP_CLIENT.id}]`,
    });
    const { data, error } = await client().signInWithIdToken({ provider: "custom:aud-yes", token, nonce });
    expect(error).toBeNull();
    expect(data.user?.identities).toMatchObject([{ provider: "custom:aud-yes", id: account }]);
  });

  it("without an address: refused, unless email_optional", async () => {
    // The mapping's literal null blanks the provider's address out.
    const body = (identifier: string, emailOptional: boolean) =>
      oidcProviderBody(op, identifier, { attribute_mapping: { email: null }, email_optional: emailOptional });
    expect((await admin.customProviders.createProvider(body("custom:no-mail", false))).error).toBeNull();
    expect((await admin.customProviders.createProvider(body("custom:mail-optional", true))).error).toBeNull();
    const refused = await signIn("custom:no-mail", login("nomail"));
    expect(refused.landing.hash).toContain(
      "error_description=Error+getting+user+email+from+external+provider",
    );
    const account = login("optional");
    const { landing } = await signIn("custom:mail-optional", account);
    const params = fragment(landing);
    expect(params.access_token, landing.toString()).toBeTruthy();
    const me = await client().getUser(params.access_token);
    expect(me.data.user).toMatchObject({ identities: [{ provider: "custom:mail-optional", id: account }] });
    expect(me.data.user?.email ?? "").toBe("");
  });

  it("an address the provider does not vouch for never joins the account that owns it", async () => {
    const name = login("owner");
    const owner = await admin.createUser({
      email: `${name}@example.com`,
      password: "pw-123456",
      email_confirm: true,
    });
    expect(owner.error).toBeNull();
    // `unverified.<name>` is someone else at the provider, claiming <name>'s address unverified.
    const { landing } = await signIn("custom:acme", `unverified.${name}`);
    expect(fragment(landing).access_token).toBeUndefined();
    const after = await admin.getUserById(owner.data.user?.id ?? "");
    expect(after.data.user?.identities?.map((i) => i.provider)).toEqual(["email"]);
    const nonce = randomBytes(16).toString("hex");
    const token = await idTokenFor(op, browser, CALLBACK, `unverified.${name}`, nonce);
    await client().signInWithIdToken({ provider: "custom:acme", token, nonce });
    const still = await admin.getUserById(owner.data.user?.id ?? "");
    expect(still.data.user?.identities?.map((i) => i.provider)).toEqual(["email"]);
  });

  it("a disabled, then deleted, provider signs nobody in", async () => {
    const created = await admin.customProviders.createProvider(oidcProviderBody(op, "custom:brief"));
    expect(created.error).toBeNull();
    const off = await admin.customProviders.updateProvider("custom:brief", { enabled: false });
    expect(off.data?.enabled).toBe(false);
    const authorize = () => fetch(`${server.url}/authorize?provider=custom:brief`, { redirect: "manual" });
    const refused = await authorize();
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ error_code: "validation_failed" });
    await admin.customProviders.updateProvider("custom:brief", { enabled: true });
    expect((await authorize()).status).toBe(302);
    expect((await admin.customProviders.deleteProvider("custom:brief")).error).toBeNull();
    expect((await authorize()).status).toBe(400);
    const gone = await admin.customProviders.getProvider("custom:brief");
    expect(gone.error).toMatchObject({ status: 404, code: "custom_provider_not_found" });
  });
});
