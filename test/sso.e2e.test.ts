import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  type FreshNamespace,
  migratedNamespace,
  startTestIdp,
  type TestIdp,
} from "@authsvc/adapters/testing";
import { productionServerEnv, roleKey } from "@authsvc/http/testing";
import { GoTrueClient } from "@supabase/auth-js";
import { decodeJwt } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  admin,
  atIdp,
  fragmentSession,
  newSamlKey,
  postToAcs,
  register,
  SP_ENTITY_ID,
} from "./support/saml.js";
import { type ServerProcess, startServer } from "./support/server-process.js";

/** SAML sign-in on the built server through auth-js's `signInWithSSO`, with an identity provider made here. */
const SITE = "https://app.example.com";
const cwd = mkdtempSync(join(tmpdir(), "authsvc-sso-"));
let ns: FreshNamespace;
let disabled: ServerProcess;
let server: ServerProcess;
let idp: TestIdp;
let serviceKey: string;
let providerId: string;

beforeAll(async () => {
  ns = await migratedNamespace();
  serviceKey = await roleKey("service_role");
  [disabled, server, idp] = await Promise.all([
    startServer(productionServerEnv(ns), { cwd }),
    startServer(
      productionServerEnv(ns, {
        AUTHSVC_SITE_URL: SITE,
        AUTHSVC_URI_ALLOW_LIST: `${SITE}/**`,
        AUTHSVC_SAML_ENABLED: "true",
        AUTHSVC_SAML_PRIVATE_KEY: newSamlKey(),
      }),
      { cwd },
    ),
    startTestIdp({ spEntityId: SP_ENTITY_ID }),
  ]);
  const metadata = await (await fetch(`${server.url}/sso/saml/metadata`)).text();
  idp.spCertificate = /<ds:X509Certificate>([^<]+)</.exec(metadata)?.[1] ?? null;
  providerId = await register(server, serviceKey, idp, ["example.com"]);
});

afterAll(async () => {
  await Promise.all([disabled?.stop(), server?.stop(), idp?.close()]);
  await ns?.drop();
  rmSync(cwd, { recursive: true, force: true });
});

const client = (on: ServerProcess, flowType: "implicit" | "pkce" = "implicit") => {
  const store = new Map<string, string>();
  const storage = {
    getItem: (k: string) => store.get(k) ?? null,
    setItem: (k: string, v: string) => void store.set(k, v),
    removeItem: (k: string) => void store.delete(k),
  };
  return new GoTrueClient({ url: on.url, autoRefreshToken: false, persistSession: false, flowType, storage });
};

describe("SAML with SAML_ENABLED off", () => {
  it("refuses signInWithSSO with 'SAML 2.0 is disabled', as auth-js's own suite expects", async () => {
    const { data, error } = await client(disabled).signInWithSSO({ domain: "example.com" });
    expect(data).toBeNull();
    expect(error?.message).toBe("SAML 2.0 is disabled");
    expect(error?.status).toBe(404);
    expect((error as { code?: string }).code).toBe("saml_provider_disabled");
    const settings = (await (await fetch(`${disabled.url}/settings`)).json()) as { saml_enabled: boolean };
    expect(settings.saml_enabled).toBe(false);
    expect((await fetch(`${disabled.url}/sso/saml/metadata`)).status).toBe(404);
  });
});

describe("SP-initiated sign-in", () => {
  it("signs in through the identity provider and lands with a session (implicit flow)", async () => {
    idp.answer = { nameId: "ada@example.com", attributes: { givenName: ["Ada"] } };
    const { data, error } = await client(server).signInWithSSO({
      domain: "example.com",
      options: { redirectTo: `${SITE}/welcome` },
    });
    expect(error).toBeNull();
    expect(data?.url.startsWith(idp.ssoUrl)).toBe(true);
    const form = await atIdp(data?.url ?? "");
    const request = idp.requests.at(-1);
    expect(request?.issuer).toBe(SP_ENTITY_ID);
    expect(request?.signatureValid).toBe(true);
    expect(request?.nameIdFormat).toBe("urn:oasis:names:tc:SAML:2.0:nameid-format:persistent");
    const landing = await postToAcs(server, form.fields);
    expect(landing.status, landing.location).toBe(302);
    expect(landing.location.startsWith(`${SITE}/welcome#`)).toBe(true);
    const session = fragmentSession(landing.location);
    const claims = decodeJwt(session.accessToken) as { amr?: { method: string }[] };
    expect(claims.amr?.[0]?.method).toBe("sso/saml");
    const { data: me } = await client(server).getUser(session.accessToken);
    expect(me.user?.email).toBe("ada@example.com");
    expect(me.user?.app_metadata.provider).toBe(`sso:${providerId}`);
    expect(me.user?.identities?.[0]?.provider).toBe(`sso:${providerId}`);
    expect(me.user?.email_confirmed_at).toBeTruthy();
  });

  it("hands a code for the PKCE flow, exchanged by auth-js for a session", async () => {
    idp.answer = { nameId: "grace@example.com" };
    const pkce = client(server, "pkce");
    const { data } = await pkce.signInWithSSO({ providerId, options: { redirectTo: `${SITE}/done` } });
    const landing = await postToAcs(server, (await atIdp(data?.url ?? "")).fields);
    expect(landing.status, landing.location).toBe(302);
    const code = new URL(landing.location).searchParams.get("code");
    expect(code).toBeTruthy();
    const { data: exchanged, error } = await pkce.exchangeCodeForSession(code ?? "");
    expect(error).toBeNull();
    expect(exchanged.user?.email).toBe("grace@example.com");
  });

  it("signs the same person into the same account, refreshing its identity data", async () => {
    idp.answer = { nameId: "ada@example.com", attributes: { givenName: ["Ada L."] } };
    const { data } = await client(server).signInWithSSO({ providerId });
    const session = fragmentSession(
      (await postToAcs(server, (await atIdp(data?.url ?? "")).fields)).location,
    );
    const list = await admin(server, serviceKey, "GET", "/admin/users?per_page=100");
    const adas = (list.body.users as { email: string }[]).filter((u) => u.email === "ada@example.com");
    expect(adas).toHaveLength(1);
    expect(session.accessToken).not.toBe("");
  });

  it("never links an SSO account to a password account of the same address, and keeps its address the IdP's", async () => {
    const made = await admin(server, serviceKey, "POST", "/admin/users", {
      email: "linus@example.com",
      password: "Passw0rd!x",
      email_confirm: true,
    });
    expect(made.status).toBe(200);
    idp.answer = { nameId: "linus@example.com" };
    const { data } = await client(server).signInWithSSO({ providerId });
    const session = fragmentSession(
      (await postToAcs(server, (await atIdp(data?.url ?? "")).fields)).location,
    );
    const sso = client(server);
    const { data: me } = await sso.getUser(session.accessToken);
    expect(me.user?.identities?.map((i) => i.provider)).toEqual([`sso:${providerId}`]);
    const list = await admin(server, serviceKey, "GET", "/admin/users?per_page=100");
    const linuses = (list.body.users as { email: string }[]).filter((u) => u.email === "linus@example.com");
    expect(linuses, JSON.stringify(list.body.users)).toHaveLength(2);
    await sso.setSession({ access_token: session.accessToken, refresh_token: session.refreshToken });
    const { error } = await sso.updateUser({ email: "elsewhere@example.com" });
    expect(error?.status).toBe(422);
    expect((error as { code?: string }).code).toBe("user_sso_managed");
    const { error: passwordError } = await sso.updateUser({ password: "An0ther-pass" });
    expect((passwordError as { code?: string }).code).toBe("user_sso_managed");
    const { error: dataError } = await sso.updateUser({ data: { theme: "dark" } });
    expect(dataError).toBeNull();
    // The password account still signs in with its password, into itself.
    const { data: own } = await client(server).signInWithPassword({
      email: "linus@example.com",
      password: "Passw0rd!x",
    });
    expect(own.user?.id).toBe(made.body.id);
    expect(own.user?.identities?.map((i) => i.provider)).toEqual(["email"]);
  });

  it("answers a POST /sso without skip_http_redirect with a 303 to the identity provider", async () => {
    const response = await fetch(`${server.url}/sso`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ domain: "EXAMPLE.com" }),
      redirect: "manual",
    });
    expect(response.status).toBe(303);
    expect(response.headers.get("location")?.startsWith(idp.ssoUrl)).toBe(true);
  });

  it("refuses an unknown domain or provider, and both or neither at once", async () => {
    const c = client(server);
    const unknown = await c.signInWithSSO({ domain: "nowhere.example" });
    expect((unknown.error as { code?: string }).code).toBe("sso_provider_not_found");
    const byId = await c.signInWithSSO({ providerId: "00000000-0000-4000-8000-000000000000" });
    expect(byId.error?.status).toBe(404);
    const both = await fetch(`${server.url}/sso`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ domain: "example.com", provider_id: providerId }),
    });
    expect(both.status).toBe(400);
  });

  it("refuses a domain or provider_id holding NUL with 400, as any text Postgres cannot store", async () => {
    for (const body of [{ domain: "\u0000" }, { domain: "example.com\u0000" }, { provider_id: "\u0000" }]) {
      const answer = await fetch(`${server.url}/sso`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(await answer.json()).toMatchObject({
        error_code: "validation_failed",
        msg: expect.stringMatching(/NUL/),
      });
    }
  });
});

describe("IdP-initiated sign-in", () => {
  it("signs in from a response the identity provider sent on its own, landing on SITE_URL", async () => {
    const response = idp.response({
      nameId: "ida@example.com",
      acsUrl: "http://localhost:9999/sso/saml/acs",
    });
    const landing = await postToAcs(server, { SAMLResponse: response, RelayState: "" });
    expect(landing.status, landing.location).toBe(302);
    expect(landing.location.startsWith(`${SITE}#`) || landing.location.startsWith(`${SITE}/#`)).toBe(true);
    const { data } = await client(server).getUser(fragmentSession(landing.location).accessToken);
    expect(data.user?.email).toBe("ida@example.com");
  });

  it("lands on an allowed RelayState URL, and on SITE_URL for one not allowed", async () => {
    const allowed = await postToAcs(server, {
      SAMLResponse: idp.response({ nameId: "ida@example.com" }),
      RelayState: `${SITE}/from-idp`,
    });
    expect(allowed.location.startsWith(`${SITE}/from-idp#`)).toBe(true);
    const other = await postToAcs(server, {
      SAMLResponse: idp.response({ nameId: "ida@example.com" }),
      RelayState: "https://evil.example/steal",
    });
    expect(other.location.startsWith("https://evil.example")).toBe(false);
    expect(other.location.startsWith(SITE)).toBe(true);
  });
});
