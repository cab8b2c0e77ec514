import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type FreshNamespace, idpMetadataXml, migratedNamespace, newIdpKey } from "@authsvc/adapters/testing";
import { productionServerEnv, roleKey } from "@authsvc/http/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { admin, newSamlKey, SP_ACS_URL, SP_ENTITY_ID } from "./support/saml.js";
import { type ServerProcess, startServer } from "./support/server-process.js";

/** The admin's SAML identity providers (`/admin/sso/providers`) and the service provider's metadata. */
const cwd = mkdtempSync(join(tmpdir(), "authsvc-sso-admin-"));
let ns: FreshNamespace;
let server: ServerProcess;
let key: string;
let certificate: string;

beforeAll(async () => {
  ns = await migratedNamespace();
  key = await roleKey("service_role");
  server = await startServer(
    productionServerEnv(ns, { AUTHSVC_SAML_ENABLED: "true", AUTHSVC_SAML_PRIVATE_KEY: newSamlKey() }),
    { cwd },
  );
  certificate = (await newIdpKey()).certificate;
});

afterAll(async () => {
  await server?.stop();
  await ns?.drop();
  rmSync(cwd, { recursive: true, force: true });
});

const metadata = (entityId: string) => idpMetadataXml(entityId, "https://idp.example/sso", certificate);
const call = (method: string, path: string, body?: unknown) => admin(server, key, method, path, body);

describe("/admin/sso/providers", () => {
  it("creates, reads (by id and by resource id), lists without the XML, updates and deletes a provider", async () => {
    const created = await call("POST", "/admin/sso/providers", {
      type: "saml",
      metadata_xml: metadata("https://idp.one/metadata"),
      domains: ["One.example", "one.example"],
      resource_id: "tenant-1",
      attribute_mapping: { keys: { name: { name: "displayName" }, groups: { name: "groups", array: true } } },
    });
    expect(created.status).toBe(201);
    const id = String(created.body.id);
    expect(created.body.domains).toEqual([{ domain: "one.example" }]);
    expect((created.body.saml as Record<string, unknown>).entity_id).toBe("https://idp.one/metadata");
    expect(created.body.disabled).toBeNull();

    expect((await call("GET", `/admin/sso/providers/${id}`)).body.resource_id).toBe("tenant-1");
    expect((await call("GET", "/admin/sso/providers/resource_tenant-1")).body.id).toBe(id);
    const list = await call("GET", "/admin/sso/providers?resource_id_prefix=tenant");
    const items = list.body.items as { id: string; saml: Record<string, unknown> }[];
    expect(items.map((p) => p.id)).toEqual([id]);
    expect(items[0]?.saml.metadata_xml).toBeUndefined();

    const updated = await call("PUT", `/admin/sso/providers/${id}`, {
      domains: ["two.example"],
      disabled: true,
    });
    expect(updated.status).toBe(200);
    expect(updated.body.domains).toEqual([{ domain: "two.example" }]);
    expect(updated.body.disabled).toBe(true);
    expect(updated.body.resource_id).toBe("tenant-1");

    const deleted = await call("DELETE", `/admin/sso/providers/${id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body.id).toBe(id);
    expect((await call("GET", `/admin/sso/providers/${id}`)).status).toBe(404);
    expect((await call("DELETE", `/admin/sso/providers/${id}`)).status).toBe(404);
  });

  it("refuses a second provider with the same EntityID (422) or a domain another owns (400), writing nothing", async () => {
    const first = await call("POST", "/admin/sso/providers", {
      type: "saml",
      metadata_xml: metadata("https://idp.dup/metadata"),
      domains: ["dup.example"],
    });
    expect(first.status).toBe(201);
    const again = await call("POST", "/admin/sso/providers", {
      type: "saml",
      metadata_xml: metadata("https://idp.dup/metadata"),
    });
    expect(again.status).toBe(422);
    expect(again.body.error_code).toBe("saml_idp_already_exists");
    const domain = await call("POST", "/admin/sso/providers", {
      type: "saml",
      metadata_xml: metadata("https://idp.other/metadata"),
      domains: ["fresh.example", "DUP.example"],
    });
    expect(domain.status).toBe(400);
    expect(domain.body.error_code).toBe("sso_domain_already_exists");
    const all = (await call("GET", "/admin/sso/providers")).body.items as { saml: { entity_id: string } }[];
    expect(all.filter((p) => p.saml.entity_id === "https://idp.other/metadata")).toEqual([]);
    // Two concurrent creations of one EntityID: one is created, the other refused.
    const racing = await Promise.all(
      [1, 2].map(() =>
        call("POST", "/admin/sso/providers", {
          type: "saml",
          metadata_xml: metadata("https://idp.race/metadata"),
        }),
      ),
    );
    expect(racing.map((r) => r.status).sort()).toEqual([201, 422]);
  });

  it("answers bad input with 400, never 500", async () => {
    const cases: [unknown, string | RegExp][] = [
      [{ metadata_xml: metadata("https://idp.x/m") }, /Only 'saml'/],
      [{ type: "saml" }, /Either metadata_xml or metadata_url/],
      [{ type: "saml", metadata_xml: "x", metadata_url: "https://a.example/m" }, /Only one of/],
      [{ type: "saml", metadata_xml: "<not xml" }, /not valid XML/],
      [{ type: "saml", metadata_xml: "<a>\u0000</a>" }, /./],
      [
        {
          type: "saml",
          metadata_xml: '<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata"/>',
        },
        /EntityID/,
      ],
      [
        {
          type: "saml",
          metadata_xml: '<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="e"/>',
        },
        /IDPSSODescriptor/,
      ],
      [
        { type: "saml", metadata_xml: metadata("https://idp.y/m"), domains: ["not a domain"] },
        /not a valid domain/,
      ],
      [
        { type: "saml", metadata_xml: metadata("https://idp.y/m"), name_id_format: "bogus" },
        /name_id_format/,
      ],
      [{ type: "saml", metadata_xml: metadata("https://idp.y/m"), domains: "one.example" }, /domains/],
      [
        { type: "saml", metadata_xml: metadata("https://idp.y/m"), attribute_mapping: { keys: { a: 1 } } },
        /attribute_mapping/,
      ],
      [{ type: "saml", metadata_url: "http://idp.example/metadata" }, /not a HTTPS URL/],
      [{ type: "saml", metadata_url: "not a url" }, /not a valid URL/],
      // Text Postgres cannot store (NUL, a lone surrogate) is refused where it is read.
      [{ type: "saml", metadata_xml: metadata("https://idp.n/m"), resource_id: "\u0000" }, /resource_id/],
      [{ type: "saml", metadata_xml: metadata("https://idp.n/m"), resource_id: "r\ud800" }, /resource_id/],
      [
        { type: "saml", metadata_xml: metadata("https://idp.n/m"), name_id_format: "\u0000" },
        /name_id_format/,
      ],
      [{ type: "saml", metadata_xml: metadata("https://idp.n/m"), domains: ["a\u0000.example"] }, /domain/],
      [
        {
          type: "saml",
          metadata_xml: metadata("https://idp.n/m"),
          attribute_mapping: { keys: { a: { name: "\u0000" } } },
        },
        /attribute_mapping/,
      ],
      [
        {
          type: "saml",
          metadata_xml: metadata("https://idp.n/m"),
          attribute_mapping: { keys: { "\ud800": { name: "a" } } },
        },
        /attribute_mapping/,
      ],
      [
        {
          type: "saml",
          metadata_xml: metadata("https://idp.n/m"),
          attribute_mapping: { keys: { a: { default: "\u0000" } } },
        },
        /attribute_mapping/,
      ],
      [{ type: "saml", metadata_url: "https://idp.example/\u0000" }, /./],
      [{ type: "saml\u0000", metadata_xml: metadata("https://idp.n/m") }, /./],
    ];
    for (const [body, message] of cases) {
      const answer = await call("POST", "/admin/sso/providers", body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(String(answer.body.msg), JSON.stringify(body)).toMatch(message);
    }
  });

  it("refuses a metadata_url on a loopback, private or link-local address before fetching it", async () => {
    for (const url of [
      "https://127.0.0.1:1/metadata",
      "https://10.0.0.1/metadata",
      "https://169.254.169.254/latest/meta-data",
      "https://[::1]/metadata",
      "https://localhost:1/metadata",
    ]) {
      const answer = await call("POST", "/admin/sso/providers", { type: "saml", metadata_url: url });
      expect(answer.status, url).toBe(400);
      expect(answer.body.error_code, url).toBe("saml_metadata_fetch_failed");
      expect(String(answer.body.msg), url).toMatch(/not a public address/);
    }
  });

  it("keeps the EntityID on update (400 saml_entity_id_mismatch) and finds nothing for a malformed id", async () => {
    const created = await call("POST", "/admin/sso/providers", {
      type: "saml",
      metadata_xml: metadata("https://idp.keep/metadata"),
    });
    const changed = await call("PUT", `/admin/sso/providers/${created.body.id}`, {
      metadata_xml: metadata("https://idp.changed/metadata"),
    });
    expect(changed.status).toBe(400);
    expect(changed.body.error_code).toBe("saml_entity_id_mismatch");
    for (const id of [
      "not-a-uuid",
      "resource_nothing",
      "'; drop table users; --",
      "resource_\u0000",
      "resource_\ud800",
    ]) {
      for (const method of ["GET", "PUT", "DELETE"]) {
        const path = `/admin/sso/providers/${id.includes("\ud800") ? "resource_%ED%A0%80" : encodeURIComponent(id)}`;
        expect((await call(method, path, method === "PUT" ? {} : undefined)).status, `${method} ${id}`).toBe(
          404,
        );
      }
    }
    const nul = await call("PUT", `/admin/sso/providers/${created.body.id}`, { resource_id: "\u0000" });
    expect(nul.status).toBe(400);
    for (const filter of ["resource_id", "resource_id_prefix"]) {
      const listed = await call("GET", `/admin/sso/providers?${filter}=%00`);
      expect(listed.status, filter).toBe(400);
      expect(listed.body.error_code, filter).toBe("validation_failed");
    }
  });

  it("is for admins only", async () => {
    const anon = await fetch(`${server.url}/admin/sso/providers`);
    expect([401, 403]).toContain(anon.status);
    await anon.arrayBuffer();
  });
});

describe("GET /sso/saml/metadata", () => {
  it("publishes the EntityID, the ACS and a signing certificate; download=true as an attachment valid 5 years", async () => {
    const answer = await fetch(`${server.url}/sso/saml/metadata`);
    expect(answer.headers.get("content-type")).toContain("application/xml");
    expect(answer.headers.get("cache-control")).toBe("public, max-age=600");
    const xml = await answer.text();
    expect(xml).toContain(`entityID="${SP_ENTITY_ID}"`);
    expect(xml).toContain(`Location="${SP_ACS_URL}"`);
    expect(xml).toMatch(/<md:KeyDescriptor use="signing">.*<ds:X509Certificate>[A-Za-z0-9+/=]{500,}</s);
    expect(xml).not.toContain('use="encryption"');
    // The certificate is made from the key alone: the same after a second request.
    expect(await (await fetch(`${server.url}/sso/saml/metadata`)).text()).toBe(xml);

    const download = await fetch(`${server.url}/sso/saml/metadata?download=true`);
    expect(download.headers.get("content-disposition")).toBe('attachment; filename="metadata.xml"');
    const until = /validUntil="([^"]+)"/.exec(await download.text())?.[1];
    const years = (new Date(until ?? 0).getTime() - Date.now()) / (365 * 24 * 60 * 60 * 1000);
    expect(years).toBeGreaterThan(4.9);
  });
});
