import { describe, expect, it } from "vitest";
import { bearer, NEW_API, send } from "../../testing/requests.js";
import { testApp } from "../../testing/test-app.js";

type Json = Record<string, unknown>;
const PATH = "/admin/custom-providers";
const OIDC = {
  provider_type: "oidc",
  identifier: "custom:acme",
  name: "Acme",
  client_id: "client",
  client_secret: "s3cret",
  issuer: "https://id.acme.example",
  scopes: ["email"],
};
const OAUTH2 = {
  provider_type: "oauth2",
  identifier: "custom:plain",
  name: "Plain",
  client_id: "client",
  client_secret: "s3cret",
  authorization_url: "https://plain.example/authorize",
  token_url: "https://plain.example/token",
  userinfo_url: "https://plain.example/userinfo",
};

/** An app over fakes (custom providers on unless told), an admin's and a signed-up user's `Authorization`. */
async function setup(customProviders: { enabled?: boolean; maxProviders?: number } = {}) {
  const base = testApp().auth.settings;
  const t = testApp(
    {},
    {
      signup: { ...base.signup, mailerAutoconfirm: true },
      customProviders: { ...base.customProviders, ...customProviders },
    },
  );
  const res = await send(t.app, "POST", "/signup", { email: "ann@example.com", password: "secret-pw" });
  const { access_token } = (await res.json()) as { access_token: string };
  const admin = await bearer(t.auth, { role: "service_role" });
  const call = (method: string, path: string, body?: unknown, headers: Record<string, string> = admin) =>
    send(t.app, method, path, body, headers);
  return { ...t, admin, user: { authorization: `Bearer ${access_token}` }, call };
}

describe("/admin/custom-providers", () => {
  it("creates (201), reads, lists, updates and deletes (204) a provider, never showing its secret", async () => {
    const { call } = await setup();
    expect(await (await call("GET", PATH)).json()).toEqual({ providers: [] });
    const created = await call("POST", PATH, OIDC);
    expect(created.status).toBe(201);
    const body = (await created.json()) as Json;
    expect(body).toMatchObject({
      id: expect.any(String),
      provider_type: "oidc",
      identifier: "custom:acme",
      name: "Acme",
      client_id: "client",
      scopes: ["openid", "email"],
      pkce_enabled: true,
      enabled: true,
      issuer: "https://id.acme.example",
      discovery_document: { token_endpoint: "https://id.acme.example/token" },
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(JSON.stringify(body)).not.toContain("s3cret");
    expect(body).not.toHaveProperty("authorization_url");

    // The path's identifier may be percent-encoded.
    const read = await call("GET", `${PATH}/custom%3Aacme`);
    expect(read.status).toBe(200);
    expect(await read.json()).toEqual(body);
    await call("POST", PATH, OAUTH2);
    const all = (await (await call("GET", PATH)).json()) as { providers: Json[] };
    expect(all.providers.map((p) => p.identifier)).toEqual(["custom:acme", "custom:plain"]);
    const oauth2 = (await (await call("GET", `${PATH}?type=oauth2`)).json()) as { providers: Json[] };
    expect(oauth2.providers.map((p) => p.identifier)).toEqual(["custom:plain"]);

    // An update keeps the type and the identifier the path names, whatever the body says.
    const updated = await call("PUT", `${PATH}/custom:acme`, {
      provider_type: "oauth2",
      identifier: "custom:renamed",
      name: "Acme Inc",
      enabled: false,
    });
    expect(updated.status).toBe(200);
    expect(await updated.json()).toMatchObject({
      identifier: "custom:acme",
      provider_type: "oidc",
      name: "Acme Inc",
      enabled: false,
    });
    expect(await (await call("GET", `${PATH}/custom:acme`)).json()).toMatchObject({
      name: "Acme Inc",
      enabled: false,
    });
    expect((await call("GET", `${PATH}/custom:renamed`)).status).toBe(404);

    const deleted = await call("DELETE", `${PATH}/custom:acme`);
    expect(deleted.status).toBe(204);
    expect(await deleted.text()).toBe("");
    const gone = await call("GET", `${PATH}/custom:acme`);
    expect(gone.status).toBe(404);
    expect(await gone.json()).toMatchObject({ error_code: "custom_provider_not_found" });
    const listed = (await (await call("GET", PATH)).json()) as { providers: Json[] };
    expect(listed.providers.map((p) => p.identifier)).toEqual(["custom:plain"]);
  });

  it("refuses no token (401) and a user's token (403) on every route, before the feature's own refusal", async () => {
    const { call, user } = await setup({ enabled: false });
    const routes: [string, string][] = [
      ["GET", PATH],
      ["POST", PATH],
      ["GET", `${PATH}/custom:acme`],
      ["PUT", `${PATH}/custom:acme`],
      ["DELETE", `${PATH}/custom:acme`],
    ];
    for (const [method, path] of routes) {
      const body = method === "GET" ? undefined : {};
      const anonymous = await call(method, path, body, {});
      expect([method, path, anonymous.status]).toEqual([method, path, 401]);
      expect(await anonymous.json()).toMatchObject({ error_code: "no_authorization" });
      const notAdmin = await call(method, path, body, user);
      expect([method, path, notAdmin.status]).toEqual([method, path, 403]);
      expect(await notAdmin.json()).toMatchObject({ error_code: "not_admin" });
    }
  });

  it("answers an admin 404 feature_disabled while custom providers are off", async () => {
    const { call, admin } = await setup({ enabled: false });
    const created = await call("POST", PATH, OIDC);
    expect(created.status).toBe(404);
    expect(await created.json()).toMatchObject({ error_code: "feature_disabled" });
    const listed = await call("GET", PATH, undefined, { ...admin, ...NEW_API });
    expect(listed.status).toBe(404);
    expect(await listed.json()).toMatchObject({ code: "feature_disabled" });
  });

  it("refuses malformed bodies and refused values with 400 validation_failed, writing nothing", async () => {
    const { call, app, admin } = await setup();
    const refusals: [Json, string | RegExp][] = [
      [{ ...OIDC, provider_type: undefined }, /provider_type/],
      [{ ...OIDC, provider_type: "saml" }, /provider_type/],
      [{ ...OIDC, identifier: "acme" }, "identifier must start with 'custom:' prefix"],
      [{ ...OIDC, scopes: "email" }, /scopes/],
      [{ ...OIDC, enabled: "yes" }, /enabled/],
      [{ ...OIDC, name: 7 }, /name/],
      [{ ...OIDC, authorization_params: { state: "x" } }, "Cannot override reserved OAuth parameter: state"],
      [{ ...OIDC, attribute_mapping: { role: "x" } }, "Cannot map to protected system field: role"],
      [{ ...OIDC, issuer: "http://id.acme.example" }, "issuer is not allowed: only https URLs are allowed"],
    ];
    for (const [body, message] of refusals) {
      const res = await call("POST", PATH, body);
      expect([JSON.stringify(body), res.status]).toEqual([JSON.stringify(body), 400]);
      const json = (await res.json()) as Json;
      expect(json).toMatchObject({ error_code: "validation_failed" });
      expect(json.msg).toMatch(message);
    }
    const notJson = await app.request(PATH, {
      method: "POST",
      headers: { ...admin, "content-type": "application/json" },
      body: "{",
    });
    expect(notJson.status).toBe(400);
    expect(await (await call("GET", PATH)).json()).toEqual({ providers: [] });
  });

  it("answers a taken identifier 400 conflict and the quota 400 over_custom_provider_quota", async () => {
    const { call } = await setup({ maxProviders: 2 });
    expect((await call("POST", PATH, OIDC)).status).toBe(201);
    const taken = await call("POST", PATH, { ...OIDC, name: "Other" });
    expect(taken.status).toBe(400);
    expect(await taken.json()).toMatchObject({ error_code: "conflict" });
    expect((await call("POST", PATH, OAUTH2)).status).toBe(201);
    const over = await call("POST", PATH, { ...OAUTH2, identifier: "custom:third" });
    expect(over.status).toBe(400);
    expect(await over.json()).toMatchObject({ error_code: "over_custom_provider_quota" });
    const listed = (await (await call("GET", PATH)).json()) as { providers: Json[] };
    expect(listed.providers.map((p) => [p.identifier, p.name])).toEqual([
      ["custom:acme", "Acme"],
      ["custom:plain", "Plain"],
    ]);
  });

  it("answers 404 custom_provider_not_found for an unknown identifier, 400 for a malformed one", async () => {
    const { call } = await setup();
    for (const method of ["GET", "PUT", "DELETE"]) {
      const res = await call(method, `${PATH}/custom:nobody`, method === "PUT" ? { name: "x" } : undefined);
      expect([method, res.status]).toEqual([method, 404]);
      expect(await res.json()).toMatchObject({ error_code: "custom_provider_not_found" });
    }
    const malformed = await call("GET", `${PATH}/acme`);
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toMatchObject({ error_code: "validation_failed" });
  });
});
