import type { FakeProvider } from "@authsvc/adapters/testing";
import { authorize, githubCase, keycloakCase, startCase } from "@authsvc/adapters/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { MODULES } from "../../composition/modules.js";
import { type Config, loadConfig } from "../../config.js";
import { settingsOf } from "../../infrastructure/server/settings-view.js";
import { externalProvidersOf } from "./external-providers.js";
import { EXTERNAL_PROVIDERS } from "./section.js";

const production = {
  AUTHSVC_DB_DATABASE_URL: "postgres://authsvc@db.internal:5432/authsvc",
  AUTHSVC_SITE_URL: "https://app.example.com",
  AUTHSVC_API_EXTERNAL_URL: "https://auth.example.com/",
  AUTHSVC_JWT_SECRET: "jwt-secret-for-tests-0123456789",
};

function configOf(vars: Record<string, string>): Config {
  const result = loadConfig({ ...production, ...vars });
  if (!result.ok) throw new Error(result.problems.join("\n"));
  return result.config;
}

describe("the external providers built from the configuration", () => {
  let github: FakeProvider;
  let keycloak: FakeProvider;
  beforeEach(async () => {
    github = (await startCase(githubCase)).fake;
    keycloak = (await startCase(keycloakCase)).fake;
  });
  afterEach(async () => {
    await github.close();
    await keycloak.close();
  });

  const enabled = () => ({
    AUTHSVC_EXTERNAL_GITHUB_ENABLED: "true",
    AUTHSVC_EXTERNAL_GITHUB_CLIENT_ID: github.clientId,
    AUTHSVC_EXTERNAL_GITHUB_SECRET: github.secret,
    AUTHSVC_EXTERNAL_GITHUB_URL: github.url,
    AUTHSVC_EXTERNAL_KEYCLOAK_ENABLED: "true",
    AUTHSVC_EXTERNAL_KEYCLOAK_CLIENT_ID: `web-app, ${keycloak.clientId}`,
    AUTHSVC_EXTERNAL_KEYCLOAK_SECRET: keycloak.secret,
    AUTHSVC_EXTERNAL_KEYCLOAK_REDIRECT_URI: "https://login.example.com/auth/v1/callback",
    AUTHSVC_EXTERNAL_KEYCLOAK_URL: keycloak.url,
  });

  it("sign in at the provider's base URL, sending it back to <API_EXTERNAL_URL>/callback by default", async () => {
    const providers = externalProvidersOf(configOf(enabled()));
    const provider = await providers.provider("github");
    if (!provider) throw new Error("github is enabled");
    const url = new URL(provider.authorizationUrl({ state: "s", scopes: [], extraParams: {} }));
    expect(url.searchParams.get("redirect_uri")).toBe("https://auth.example.com/callback");
    const { code } = await authorize(url.toString());
    const user = await provider.fetchUser(await provider.exchangeCode(code));
    expect(user.subject).toBe("4242");
  });

  it("use the configured redirect URI, and the first of several client ids to sign in", async () => {
    const provider = await externalProvidersOf(configOf(enabled())).provider("keycloak");
    const url = new URL(provider?.authorizationUrl({ state: "s", scopes: [], extraParams: {} }) ?? "");
    expect(url.searchParams.get("redirect_uri")).toBe("https://login.example.com/auth/v1/callback");
    expect(url.searchParams.get("client_id")).toBe("web-app");
  });

  it("accept ID tokens for any of the configured client ids", async () => {
    const verifier = await externalProvidersOf(configOf(enabled())).idTokenVerifier("keycloak");
    const { user } = (await verifier?.verify(await keycloak.signIdToken({ sub: "kc-1" }))) ?? {};
    expect(user?.subject).toBe("kc-1");
  });

  it("are absent when disabled or unknown", async () => {
    const providers = externalProvidersOf(configOf(enabled()));
    for (const name of ["google", "zoom", "twitter", "custom:x"]) {
      expect(await providers.provider(name)).toBeNull();
      expect(await providers.idTokenVerifier(name)).toBeNull();
    }
    expect(await providers.idTokenVerifier("github")).toBeNull();
  });

  it("are reported one by one in /settings", () => {
    const settings = settingsOf(configOf(enabled()), MODULES);
    const on = EXTERNAL_PROVIDERS.filter((id) => settings.external[id]);
    expect(on).toEqual(["github", "keycloak"]);
    expect(Object.keys(settings.external)).toEqual(expect.arrayContaining([...EXTERNAL_PROVIDERS]));
  });
});
