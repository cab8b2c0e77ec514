import { describe, expect, it } from "vitest";
import { bearer, NEW_API, send } from "../../testing/requests.js";
import { testApp } from "../../testing/test-app.js";

type Json = Record<string, unknown>;
const PATH = "/admin/sso/providers";
const UNKNOWN = "33333333-3333-4333-8333-333333333333";
/** The fake SAML port reads an EntityID from this shape of "metadata". */
const metadata = (entityId: string) => `<EntityDescriptor entityID="${entityId}"/>`;

/** An app over fakes (SAML on unless told), an admin's and a signed-up user's `Authorization`. */
async function setup(saml: { enabled: boolean } = { enabled: true }) {
  const base = testApp().auth.settings;
  const t = testApp(
    {},
    { signup: { ...base.signup, mailerAutoconfirm: true }, sso: { ...base.sso, ...saml } },
  );
  const res = await send(t.app, "POST", "/signup", { email: "ann@example.com", password: "secret-pw" });
  const { access_token } = (await res.json()) as { access_token: string };
  const admin = await bearer(t.auth, { role: "service_role" });
  const call = (method: string, path: string, body?: unknown, headers: Record<string, string> = admin) =>
    send(t.app, method, path, body, headers);
  return { ...t, admin, user: { authorization: `Bearer ${access_token}` }, call };
}

describe("/admin/sso/providers", () => {
  it("creates a provider (201) that a later read, list, update and delete see", async () => {
    const { call } = await setup();
    expect(await (await call("GET", PATH)).json()).toEqual({ items: [] });
    const created = await call("POST", PATH, {
      type: "saml",
      metadata_xml: metadata("https://idp.one/metadata"),
      domains: ["One.example"],
      resource_id: "tenant-1",
      attribute_mapping: { keys: { name: { name: "displayName" } } },
    });
    expect(created.status).toBe(201);
    const body = (await created.json()) as Json & { id: string };
    expect(body).toEqual({
      id: expect.any(String),
      resource_id: "tenant-1",
      disabled: null,
      saml: {
        entity_id: "https://idp.one/metadata",
        metadata_xml: metadata("https://idp.one/metadata"),
        attribute_mapping: { keys: { name: { name: "displayName" } } },
      },
      domains: [{ domain: "one.example" }],
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });

    const read = await call("GET", `${PATH}/${body.id}`);
    expect(read.status).toBe(200);
    expect(await read.json()).toEqual(body);
    expect(await (await call("GET", `${PATH}/resource_tenant-1`)).json()).toMatchObject({ id: body.id });
    // Lists leave the XML out.
    const listed = (await (await call("GET", `${PATH}?resource_id_prefix=tenant`)).json()) as {
      items: { id: string; saml: Json }[];
    };
    expect(listed.items.map((p) => p.id)).toEqual([body.id]);
    expect(listed.items[0]?.saml).not.toHaveProperty("metadata_xml");
    expect(await (await call("GET", `${PATH}?resource_id=other`)).json()).toEqual({ items: [] });

    const updated = await call("PUT", `${PATH}/${body.id}`, { domains: ["two.example"], disabled: true });
    expect(updated.status).toBe(200);
    expect(await updated.json()).toMatchObject({ domains: [{ domain: "two.example" }], disabled: true });
    expect(await (await call("GET", `${PATH}/${body.id}`)).json()).toMatchObject({
      domains: [{ domain: "two.example" }],
      disabled: true,
      resource_id: "tenant-1",
    });

    const deleted = await call("DELETE", `${PATH}/resource_tenant-1`);
    expect(deleted.status).toBe(200);
    expect(await deleted.json()).toMatchObject({ id: body.id });
    const gone = await call("GET", `${PATH}/${body.id}`);
    expect(gone.status).toBe(404);
    expect(await gone.json()).toMatchObject({ error_code: "sso_provider_not_found" });
    expect(await (await call("GET", PATH)).json()).toEqual({ items: [] });
  });

  it("refuses no token (401) and a user's token (403) on every route, before SAML's own refusal", async () => {
    const { call, user } = await setup({ enabled: false });
    const routes: [string, string][] = [
      ["GET", PATH],
      ["POST", PATH],
      ["GET", `${PATH}/${UNKNOWN}`],
      ["PUT", `${PATH}/${UNKNOWN}`],
      ["DELETE", `${PATH}/${UNKNOWN}`],
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

  it("answers an admin 404 saml_provider_disabled while SAML is off", async () => {
    const { call, admin } = await setup({ enabled: false });
    const created = await call("POST", PATH, { type: "saml", metadata_xml: metadata("https://x/m") });
    expect(created.status).toBe(404);
    expect(await created.json()).toMatchObject({ error_code: "saml_provider_disabled" });
    const listed = await call("GET", PATH, undefined, { ...admin, ...NEW_API });
    expect(listed.status).toBe(404);
    expect(await listed.json()).toMatchObject({ code: "saml_provider_disabled" });
  });

  it("refuses malformed bodies with 400 validation_failed, writing nothing", async () => {
    const { call, app, admin } = await setup();
    const refusals: [unknown, string | RegExp][] = [
      [{ metadata_xml: metadata("https://x/m") }, "Only 'saml' supported for SSO provider type"],
      [
        { type: "oidc", metadata_xml: metadata("https://x/m") },
        "Only 'saml' supported for SSO provider type",
      ],
      [{ type: "saml" }, "Either metadata_xml or metadata_url must be set"],
      [{ type: "saml", metadata_xml: "<nothing/>" }, "SAML Metadata does not contain an EntityID"],
      [{ type: "saml", metadata_xml: metadata("https://x/m"), domains: "x.example" }, /domains/],
      [{ type: "saml", metadata_xml: metadata("https://x/m"), name_id_format: "nope" }, /name_id_format/],
      [{ type: 7 }, /type/],
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
    expect(await (await call("GET", PATH)).json()).toEqual({ items: [] });
  });

  it("maps clashes: same EntityID 422, a taken domain 400, a taken resource id 422 conflict", async () => {
    const { call } = await setup();
    const first = {
      type: "saml",
      metadata_xml: metadata("https://a/m"),
      domains: ["a.example"],
      resource_id: "r",
    };
    const made = (await (await call("POST", PATH, first)).json()) as { id: string };
    const sameEntity = await call("POST", PATH, { type: "saml", metadata_xml: metadata("https://a/m") });
    expect(sameEntity.status).toBe(422);
    expect(await sameEntity.json()).toMatchObject({ error_code: "saml_idp_already_exists" });
    const other = { type: "saml", metadata_xml: metadata("https://b/m") };
    const takenDomain = await call("POST", PATH, { ...other, domains: ["A.example"] });
    expect(takenDomain.status).toBe(400);
    expect(await takenDomain.json()).toMatchObject({ error_code: "sso_domain_already_exists" });
    const takenResource = await call("POST", PATH, { ...other, resource_id: "R" });
    expect(takenResource.status).toBe(422);
    expect(await takenResource.json()).toMatchObject({ error_code: "conflict" });
    const changedEntity = await call("PUT", `${PATH}/${made.id}`, { metadata_xml: metadata("https://b/m") });
    expect(changedEntity.status).toBe(400);
    expect(await changedEntity.json()).toMatchObject({ error_code: "saml_entity_id_mismatch" });
    expect((await (await call("GET", PATH)).json()) as Json).toMatchObject({ items: [{ id: made.id }] });
  });

  it("answers 404 sso_provider_not_found for unknown and malformed ids", async () => {
    const { call } = await setup();
    for (const id of [UNKNOWN, "not-a-uuid", "resource_none"]) {
      for (const method of ["GET", "PUT", "DELETE"]) {
        const res = await call(method, `${PATH}/${id}`, method === "PUT" ? { disabled: true } : undefined);
        expect([method, id, res.status]).toEqual([method, id, 404]);
        expect(await res.json()).toMatchObject({ error_code: "sso_provider_not_found" });
      }
    }
  });
});
