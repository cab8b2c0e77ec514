import { describe, expect, it } from "vitest";
import { fakeProviderEndpoints } from "../testing/custom-providers/fake-custom-providers.js";
import { fakeDeps } from "../testing/fake-deps.js";
import type { CustomProviderFields } from "./fields.js";
import {
  createCustomProvider,
  deleteCustomProvider,
  findCustomProvider,
  listCustomProviders,
  updateCustomProvider,
} from "./manage-custom-providers.js";

const oidc: CustomProviderFields = {
  providerType: "oidc",
  identifier: "custom:acme",
  name: "Acme",
  clientId: "client",
  clientSecret: "s3cret",
  issuer: "https://id.acme.example",
  scopes: ["email"],
};
const oauth2: CustomProviderFields = {
  providerType: "oauth2",
  identifier: "custom:plain",
  name: "Plain",
  clientId: "client",
  clientSecret: "s3cret",
  authorizationUrl: "https://plain.example/authorize",
  tokenUrl: "https://plain.example/token",
  userinfoUrl: "https://plain.example/userinfo",
  issuer: "https://ignored.example",
};

const message = (result: { ok: boolean; error?: { code: string; message: string } }) =>
  result.ok ? "ok" : `${result.error?.code}: ${result.error?.message}`;

describe("createCustomProvider", () => {
  it("applies the reference's defaults, discovers, and seals the secret for the provider's id", async () => {
    const deps = fakeDeps();
    const created = await createCustomProvider(deps, oidc);
    if (!created.ok) throw created.error;
    const p = created.value;
    expect(p).toMatchObject({
      scopes: ["openid", "email"],
      pkceEnabled: true,
      enabled: true,
      emailOptional: false,
    });
    expect(p.discovery?.token_endpoint).toBe("https://id.acme.example/token");
    expect(p.discoveryCachedAt).toEqual(deps.clock.now());
    expect(p.sealedSecret).toBe(`sealed(${p.id})s3cret`);
    const plain = await createCustomProvider(deps, oauth2);
    if (!plain.ok) throw plain.error;
    // The other type's URL fields are not kept.
    expect(plain.value).toMatchObject({
      issuer: null,
      discovery: null,
      userinfoUrl: "https://plain.example/userinfo",
    });
  });

  it("refuses, storing nothing: private URLs, failed discovery, a taken identifier, the quota", async () => {
    const deps = fakeDeps({ customProviders: { enabled: true, maxProviders: 2 } });
    expect(message(await createCustomProvider(deps, { ...oidc, issuer: "https://private.acme/" }))).toMatch(
      /^validation_failed: issuer is not allowed: resolves to a private address/,
    );
    const failing = { ...deps, providerEndpoints: fakeProviderEndpoints({ discoveryRefusal: "HTTP 500" }) };
    expect(message(await createCustomProvider(failing, oidc))).toBe(
      'validation_failed: OIDC discovery from "https://id.acme.example/.well-known/openid-configuration" failed: HTTP 500',
    );
    expect((await createCustomProvider(deps, oidc)).ok).toBe(true);
    expect(message(await createCustomProvider(deps, oidc))).toMatch(/^conflict:/);
    expect((await createCustomProvider(deps, oauth2)).ok).toBe(true);
    expect(message(await createCustomProvider(deps, { ...oauth2, identifier: "custom:third" }))).toMatch(
      /^over_custom_provider_quota:/,
    );
    expect(await deps.store.customProviders.count()).toBe(2);
  });
});

describe("updateCustomProvider", () => {
  it("replaces what is sent, keeps type and identifier, rediscovers only on a new issuer", async () => {
    const deps = fakeDeps();
    const created = await createCustomProvider(deps, oidc);
    if (!created.ok) throw created.error;
    deps.clock.advance(60_000);
    const renamed = await updateCustomProvider(deps, {
      identifier: "custom:acme",
      fields: { name: "Acme 2", clientSecret: "", scopes: ["profile"], enabled: false },
    });
    if (!renamed.ok) throw renamed.error;
    expect(renamed.value).toMatchObject({ name: "Acme 2", scopes: ["openid", "profile"], enabled: false });
    expect(renamed.value.sealedSecret).toBe(created.value.sealedSecret);
    expect(renamed.value.discoveryCachedAt).toEqual(created.value.discoveryCachedAt);
    const moved = await updateCustomProvider(deps, {
      identifier: "custom:acme",
      fields: { issuer: "https://id2.acme.example", clientSecret: "new", tokenUrl: "https://private.x/" },
    });
    if (!moved.ok) throw moved.error;
    expect(moved.value.discovery?.issuer).toBe("https://id2.acme.example");
    expect(moved.value.discoveryCachedAt).toEqual(deps.clock.now());
    expect(moved.value.sealedSecret).toBe(`sealed(${created.value.id})new`);
    expect(moved.value.tokenUrl).toBeNull();
    const refused = await updateCustomProvider(deps, {
      identifier: "custom:acme",
      fields: { issuer: "https://private.acme/", attributeMapping: { sub: "email" } },
    });
    expect(message(refused)).toMatch(/protected system field: sub/);
    expect(message(await updateCustomProvider(deps, { identifier: "custom:none", fields: {} }))).toMatch(
      /^custom_provider_not_found:/,
    );
  });
});

describe("find, list, delete", () => {
  it("refuse a malformed identifier or type, and answer 404 for an unknown one", async () => {
    const deps = fakeDeps();
    await createCustomProvider(deps, oidc);
    expect(message(await findCustomProvider(deps, "acme"))).toMatch(/must start with 'custom:'/);
    expect(message(await listCustomProviders(deps, "saml"))).toMatch(/type must be/);
    const listed = await listCustomProviders(deps, "oidc");
    expect(listed.ok && listed.value.map((p) => p.identifier)).toEqual(["custom:acme"]);
    expect((await deleteCustomProvider(deps, "custom:acme")).ok).toBe(true);
    expect(message(await deleteCustomProvider(deps, "custom:acme"))).toMatch(/^custom_provider_not_found:/);
  });
});
