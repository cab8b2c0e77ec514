import { generateKeyPairSync } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  type FreshNamespace,
  migratedNamespace,
  postedForm,
  startTestIdp,
  type TestIdp,
} from "@authsvc/adapters/testing";
import { productionServerEnv, roleKey } from "@authsvc/http/testing";
import { expect } from "vitest";
import { type ServerProcess, startServer } from "./server-process.js";

/** `SAML_PRIVATE_KEY` as operators write it: base64 of a PKCS#1 DER RSA key. */
export function newSamlKey(): string {
  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048, publicExponent: 65537 });
  return privateKey.export({ format: "der", type: "pkcs1" }).toString("base64");
}

/** The service provider's identity as the test servers' `API_EXTERNAL_URL` makes it. */
export const SP_ENTITY_ID = "http://localhost:9999/sso/saml/metadata";
export const SP_ACS_URL = "http://localhost:9999/sso/saml/acs";

/** Calls an admin endpoint with the service role key. */
export async function admin(
  server: ServerProcess,
  key: string,
  method: string,
  path: string,
  body?: unknown,
) {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, apikey: key, "content-type": "application/json" },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** Registers `idp` with `domains`; resolves the provider's id. */
export async function register(server: ServerProcess, key: string, idp: TestIdp, domains: string[]) {
  const created = await admin(server, key, "POST", "/admin/sso/providers", {
    type: "saml",
    metadata_xml: idp.metadataXml,
    domains,
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return String(created.body.id);
}

/** Posts an HTTP-POST binding form to the server's ACS as the browser would; does not follow. */
export async function postToAcs(server: ServerProcess, fields: Record<string, string>) {
  const response = await fetch(`${server.url}/sso/saml/acs`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields).toString(),
    redirect: "manual",
  });
  await response.arrayBuffer();
  return { status: response.status, location: response.headers.get("location") ?? "" };
}

/** Follows the URL `POST /sso` gave to the identity provider; resolves the form it answers. */
export async function atIdp(url: string) {
  const response = await fetch(url);
  expect(response.status).toBe(200);
  return postedForm(await response.text());
}

/** The `error_code` and `error_description` of a refusal's landing. */
export function refusal(location: string) {
  const url = new URL(location);
  return {
    origin: url.origin,
    code: url.searchParams.get("error_code"),
    description: url.searchParams.get("error_description"),
  };
}

/** The session of an implicit flow's landing (its fragment). */
export function fragmentSession(location: string) {
  const params = new URLSearchParams(new URL(location).hash.slice(1));
  return { accessToken: params.get("access_token") ?? "", refreshToken: params.get("refresh_token") ?? "" };
}

/** A built server with SAML on and a test identity provider registered with it, on a fresh namespace. */
export interface SsoRig {
  readonly ns: FreshNamespace;
  readonly server: ServerProcess;
  readonly idp: TestIdp;
  readonly providerId: string;
  close(): Promise<void>;
}

/**
 * Starts the rig: the server with `env` over SAML's own variables, the identity provider (which
 * learns the server's certificate from its metadata), and the provider registered for `domains`.
 */
export async function startSsoRig(env: Record<string, string>, domains: string[]): Promise<SsoRig> {
  const ns = await migratedNamespace();
  const cwd = mkdtempSync(join(tmpdir(), "authsvc-sso-"));
  const [server, idp] = await Promise.all([
    startServer(
      productionServerEnv(ns, {
        AUTHSVC_SAML_ENABLED: "true",
        AUTHSVC_SAML_PRIVATE_KEY: newSamlKey(),
        ...env,
      }),
      { cwd },
    ),
    startTestIdp({ spEntityId: SP_ENTITY_ID }),
  ]);
  const metadata = await (await fetch(`${server.url}/sso/saml/metadata`)).text();
  idp.spCertificate = /<ds:X509Certificate>([^<]+)</.exec(metadata)?.[1] ?? null;
  const providerId = await register(server, await roleKey("service_role"), idp, domains);
  return {
    ns,
    server,
    idp,
    providerId,
    async close() {
      await Promise.all([server.stop(), idp.close()]);
      await ns.drop();
      rmSync(cwd, { recursive: true, force: true });
    },
  };
}
