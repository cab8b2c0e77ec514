import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  encryptAssertion,
  type FreshNamespace,
  migratedNamespace,
  newIdpKey,
  startTestIdp,
  type TestIdp,
} from "@authsvc/adapters/testing";
import { productionServerEnv, roleKey } from "@authsvc/http/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newSamlKey, postToAcs, refusal, register, SP_ACS_URL, SP_ENTITY_ID } from "./support/saml.js";
import { type ServerProcess, startServer } from "./support/server-process.js";

/** Encrypted assertions (`SAML_ALLOW_ENCRYPTED_ASSERTIONS`) and the key rotation (`SAML_PRIVATE_KEY_NEXT`). */
const cwd = mkdtempSync(join(tmpdir(), "authsvc-sso-enc-"));
let ns: FreshNamespace;
let plain: ServerProcess;
let encrypting: ServerProcess;
let idp: TestIdp;
let metadata: string;
let certificates: string[];

beforeAll(async () => {
  ns = await migratedNamespace();
  [plain, encrypting, idp] = await Promise.all([
    startServer(
      productionServerEnv(ns, { AUTHSVC_SAML_ENABLED: "true", AUTHSVC_SAML_PRIVATE_KEY: newSamlKey() }),
      {
        cwd,
      },
    ),
    startServer(
      productionServerEnv(ns, {
        AUTHSVC_SAML_ENABLED: "true",
        AUTHSVC_SAML_PRIVATE_KEY: newSamlKey(),
        AUTHSVC_SAML_PRIVATE_KEY_NEXT: newSamlKey(),
        AUTHSVC_SAML_ALLOW_ENCRYPTED_ASSERTIONS: "true",
      }),
      { cwd },
    ),
    startTestIdp({ spEntityId: SP_ENTITY_ID }),
  ]);
  await register(encrypting, await roleKey("service_role"), idp, []);
  const answer = await fetch(`${encrypting.url}/sso/saml/metadata`);
  expect(answer.headers.get("cache-control")).toBe("public, max-age=60");
  metadata = await answer.text();
  certificates = [...new Set([...metadata.matchAll(/<ds:X509Certificate>([^<]+)</g)].map((m) => m[1] ?? ""))];
});

afterAll(async () => {
  await Promise.all([plain?.stop(), encrypting?.stop(), idp?.close()]);
  await ns?.drop();
  rmSync(cwd, { recursive: true, force: true });
});

const encrypted = (nameId: string, certificate: string) =>
  encryptAssertion(idp.response({ nameId, acsUrl: SP_ACS_URL }), certificate);

describe("encrypted assertions", () => {
  it("are announced: both keys, for signing and for encryption, with a one-hour cacheDuration", async () => {
    const settings = (await (await fetch(`${encrypting.url}/settings`)).json()) as Record<string, unknown>;
    expect(settings).toMatchObject({ saml_enabled: true, saml_private_key_next_configured: true });
    expect(certificates).toHaveLength(2);
    expect(metadata.match(/use="encryption"/g)).toHaveLength(2);
    expect(metadata).toContain('cacheDuration="PT1H"');
  });

  it("sign in when encrypted to the current key, or to the next one", async () => {
    for (const [i, certificate] of certificates.entries()) {
      const landing = await postToAcs(encrypting, {
        SAMLResponse: await encrypted(`enc${i}@example.com`, certificate),
      });
      expect(landing.status, landing.location).toBe(302);
      expect(landing.location).toContain("access_token=");
    }
  });

  it("are refused when encrypted to a key this server does not have", async () => {
    const stranger = (await newIdpKey("stranger.test")).certificate;
    const landing = await postToAcs(encrypting, { SAMLResponse: await encrypted("x@example.com", stranger) });
    expect(landing.status).toBe(303);
    expect(refusal(landing.location).code).toBe("validation_failed");
  });

  it("are refused by a server that does not allow them", async () => {
    const plainMetadata = await (await fetch(`${plain.url}/sso/saml/metadata`)).text();
    expect(plainMetadata).not.toContain('use="encryption"');
    const certificate = /<ds:X509Certificate>([^<]+)</.exec(plainMetadata)?.[1] ?? "";
    const landing = await postToAcs(plain, { SAMLResponse: await encrypted("y@example.com", certificate) });
    expect(landing.status).toBe(303);
    expect(refusal(landing.location).code).toBe("validation_failed");
  });
});
