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
 * `AUTHSVC_EXPERIMENTAL_PROVIDER_LINKING_DOMAINS=keycloak=corp`: the Keycloak provider (a real OpenID
 * Provider whose `<name>` accounts claim `<name>@example.com`, verified) is a linking domain of its own,
 * so its people never land in the password accounts of the same address, nor they in its.
 */
let ns: FreshNamespace;
let op: OpenIdProvider;
let server: ServerProcess;
let browser: ReturnType<typeof oauthBrowser>;
const cwd = mkdtempSync(join(tmpdir(), "authsvc-linking-domains-"));
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
      AUTHSVC_EXPERIMENTAL_PROVIDER_LINKING_DOMAINS: "keycloak=corp",
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

const client = () => browserClient(server.url).client;

async function signInWithProvider(login: string) {
  const { data } = await client().signInWithOAuth({
    provider: "keycloak",
    options: { redirectTo: WELCOME, scopes: "openid", skipBrowserRedirect: true },
  });
  const { landing } = await browser.callback(await browser.throughProvider(data.url ?? "", login));
  const token = new URLSearchParams(landing.hash.slice(1)).get("access_token");
  expect(token, landing.toString()).toBeTruthy();
  const { data: me, error } = await client().getUser(token ?? "");
  expect(error).toBeNull();
  return me.user;
}

describe("a provider in a linking domain of its own", () => {
  it("gets an account of its own beside the password account of the same verified address", async () => {
    const login = `ann-${Date.now()}`;
    const email = `${login}@example.com`;
    const owner = await client().signUp({ email, password: "secret-pw-1" });
    expect(owner.error).toBeNull();

    const corp = await signInWithProvider(login);
    expect(corp?.id).not.toBe(owner.data.user?.id);
    expect(corp?.email).toBe(email);
    expect(corp?.identities?.map((i) => i.provider)).toEqual(["keycloak"]);
    expect((await signInWithProvider(login))?.id).toBe(corp?.id);

    // The password account is untouched and still the one its address finds.
    const signedIn = await client().signInWithPassword({ email, password: "secret-pw-1" });
    expect(signedIn.data.user?.id).toBe(owner.data.user?.id);
    expect(signedIn.data.user?.identities?.map((i) => i.provider)).toEqual(["email"]);
  });
});
