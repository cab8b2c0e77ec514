import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  type FreshNamespace,
  type HttpsDocumentServer,
  migratedNamespace,
  startHttpsDocumentServer,
  startTestIdp,
  type TestIdp,
} from "@authsvc/adapters/testing";
import { productionServerEnv, roleKey } from "@authsvc/http/testing";
import { GoTrueClient } from "@supabase/auth-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { admin, atIdp, fragmentSession, newSamlKey, postToAcs, SP_ENTITY_ID } from "./support/saml.js";
import { type ServerProcess, startServer } from "./support/server-process.js";

/** Identity providers registered by `metadata_url`, fetched over https from a server made here. */
const cwd = mkdtempSync(join(tmpdir(), "authsvc-sso-url-"));
let ns: FreshNamespace;
let strict: ServerProcess;
let open: ServerProcess;
let idp: TestIdp;
let documents: HttpsDocumentServer;
let key: string;

beforeAll(async () => {
  ns = await migratedNamespace();
  key = await roleKey("service_role");
  idp = await startTestIdp({ spEntityId: SP_ENTITY_ID });
  const caFile = join(cwd, "ca.pem");
  documents = await startHttpsDocumentServer(idp.metadataXml, caFile);
  const env = {
    AUTHSVC_SAML_ENABLED: "true",
    AUTHSVC_SAML_PRIVATE_KEY: newSamlKey(),
    NODE_EXTRA_CA_CERTS: caFile,
  };
  [strict, open] = await Promise.all([
    startServer(productionServerEnv(ns, env), { cwd }),
    startServer(productionServerEnv(ns, { ...env, AUTHSVC_SAML_METADATA_ALLOW_PRIVATE_ADDRESSES: "true" }), {
      cwd,
    }),
  ]);
});

afterAll(async () => {
  await Promise.all([strict?.stop(), open?.stop(), idp?.close(), documents?.close()]);
  await ns?.drop();
  rmSync(cwd, { recursive: true, force: true });
});

describe("metadata_url", () => {
  it("is not fetched from a loopback address unless the switch allows it", async () => {
    const refused = await admin(strict, key, "POST", "/admin/sso/providers", {
      type: "saml",
      metadata_url: documents.url,
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error_code).toBe("saml_metadata_fetch_failed");
    expect(documents.fetched()).toBe(0);
  });

  it("registers the provider from the fetched metadata, which then signs people in", async () => {
    const created = await admin(open, key, "POST", "/admin/sso/providers", {
      type: "saml",
      metadata_url: documents.url,
      domains: ["url.example"],
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.saml).toMatchObject({ entity_id: idp.entityId, metadata_url: documents.url });
    expect(documents.fetched()).toBe(1);

    idp.answer = { nameId: "urla@url.example" };
    const client = new GoTrueClient({ url: open.url, autoRefreshToken: false, persistSession: false });
    const { data } = await client.signInWithSSO({ domain: "url.example" });
    const landing = await postToAcs(open, (await atIdp(data?.url ?? "")).fields);
    expect(landing.status, landing.location).toBe(302);
    const { data: me } = await client.getUser(fragmentSession(landing.location).accessToken);
    expect(me.user?.email).toBe("urla@url.example");
  });

  it("answers a URL that does not answer 200 with 400 saml_metadata_fetch_failed", async () => {
    const missing = await admin(open, key, "POST", "/admin/sso/providers", {
      type: "saml",
      metadata_url: documents.url.replace("/metadata", "/nothing"),
    });
    expect(missing.status).toBe(400);
    expect(missing.body.error_code).toBe("saml_metadata_fetch_failed");
    expect(String(missing.body.msg)).toMatch(/HTTP 404/);
  });
});
