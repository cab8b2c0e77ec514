import type { CustomProvider, OidcDiscovery } from "@authsvc/core/custom-providers";
import type { ExternalProviders } from "@authsvc/core/external";
import { fakeCustomProviders, fakeSecretBox } from "@authsvc/core/testing";
import { describe, expect, it } from "vitest";
import { withCustomProviders } from "./with-custom-providers.js";

const HOUR = 3_600_000;
const doc = (host: string): OidcDiscovery => ({
  issuer: "https://id.example",
  authorization_endpoint: `https://${host}/authorize`,
  token_endpoint: `https://${host}/token`,
  jwks_uri: `https://${host}/jwks`,
});

function provider(overrides: Partial<CustomProvider> = {}): CustomProvider {
  const box = fakeSecretBox();
  return {
    id: "8d0c5b9e-4a53-4b1e-9f0e-0d5c1a2b3c4d",
    providerType: "oidc",
    identifier: "custom:acme",
    name: "Acme",
    clientId: "client",
    sealedSecret: box.seal("8d0c5b9e-4a53-4b1e-9f0e-0d5c1a2b3c4d", "secret"),
    acceptableClientIds: [],
    scopes: ["openid"],
    pkceEnabled: true,
    attributeMapping: {},
    customClaimsAllowlist: [],
    authorizationParams: {},
    enabled: true,
    emailOptional: false,
    issuer: "https://id.example",
    discoveryUrl: null,
    skipNonceCheck: false,
    authorizationUrl: null,
    tokenUrl: null,
    userinfoUrl: null,
    jwksUri: null,
    discovery: doc("stored.example"),
    discoveryCachedAt: new Date(0),
    createdAt: new Date(0),
    updatedAt: new Date(0),
    ...overrides,
  };
}

const builtIn: ExternalProviders = { provider: async () => null, idTokenVerifier: async () => null };

function setup(answer: () => OidcDiscovery | null, enabled = true) {
  const rows = new Map<string, CustomProvider>();
  const store = fakeCustomProviders(rows);
  let clock = 0;
  const fetches: string[] = [];
  const providers = withCustomProviders(builtIn, {
    enabled,
    store,
    secretBox: fakeSecretBox(),
    redirectUri: "https://auth.example/callback",
    fetch: (async () => new Response("{}")) as typeof fetch,
    discoveryTtlMs: HOUR,
    now: () => clock,
    discover: async (url) => {
      fetches.push(url);
      const found = answer();
      return found ? { ok: true, value: found } : { ok: false, error: "HTTP 500" };
    },
  });
  const host = async () =>
    new URL(
      (await providers.provider("Custom:Acme"))?.authorizationUrl({
        state: "s",
        scopes: [],
        extraParams: {},
      }) ?? "",
    ).host;
  return {
    rows,
    providers,
    fetches,
    host,
    tick: (ms: number) => {
      clock += ms;
    },
  };
}

describe("withCustomProviders", () => {
  it("uses the stored discovery within the TTL, then fetches it again, once for concurrent sign-ins", async () => {
    const t = setup(() => doc("fresh.example"));
    t.rows.set("a", provider({ discoveryCachedAt: new Date(0) }));
    expect(await t.host()).toBe("stored.example");
    t.tick(HOUR + 1);
    const hosts = await Promise.all(Array.from({ length: 8 }, () => t.host()));
    expect(new Set(hosts)).toEqual(new Set(["fresh.example"]));
    expect(t.fetches).toEqual(["https://id.example/.well-known/openid-configuration"]);
  });

  it("keeps the last good document when the fetch fails, and does not retry before the TTL", async () => {
    const t = setup(() => null);
    t.rows.set("a", provider());
    t.tick(HOUR + 1);
    expect(await t.host()).toBe("stored.example");
    expect(await t.host()).toBe("stored.example");
    expect(t.fetches).toHaveLength(1);
  });

  it("sees a change or a deletion of the row at once; a disabled provider or feature signs nobody in", async () => {
    const t = setup(() => doc("fresh.example"));
    t.rows.set("a", provider());
    expect(await t.host()).toBe("stored.example");
    t.rows.set("a", provider({ updatedAt: new Date(5), discovery: doc("moved.example") }));
    expect(await t.host()).toBe("moved.example");
    t.rows.set("a", provider({ updatedAt: new Date(6), enabled: false }));
    expect(await t.providers.provider("custom:acme")).toBeNull();
    t.rows.delete("a");
    expect(await t.providers.provider("custom:acme")).toBeNull();
    const off = setup(() => doc("fresh.example"), false);
    off.rows.set("a", provider());
    expect(await off.providers.provider("custom:acme")).toBeNull();
  });

  it("offers the id_token grant for OpenID providers only", async () => {
    const t = setup(() => null);
    t.rows.set(
      "a",
      provider({
        providerType: "oauth2",
        issuer: null,
        discovery: null,
        authorizationUrl: "https://plain.example/a",
        tokenUrl: "https://plain.example/t",
        userinfoUrl: "https://plain.example/u",
        jwksUri: "https://plain.example/jwks",
      }),
    );
    expect(await t.providers.provider("custom:acme")).not.toBeNull();
    expect(await t.providers.idTokenVerifier("custom:acme")).toBeNull();
  });
});
