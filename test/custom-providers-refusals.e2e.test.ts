import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type FreshNamespace, migratedNamespace } from "@authsvc/adapters/testing";
import { productionServerEnv, roleKey } from "@authsvc/http/testing";
import { GoTrueAdminApi } from "@supabase/auth-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { oauth2ProviderBody, oidcProviderBody } from "./support/custom-provider-fixtures.js";
import { type OpenIdProvider, startOpenIdProvider } from "./support/openid-provider.js";
import { type ServerProcess, startServer } from "./support/server-process.js";

/**
 * What the admin API of custom providers refuses, each with a clear 400/404 and nothing stored: URLs
 * authsvc must not call (with the test switch off: loopback too), discovery documents that do not
 * hold, reserved parameters, protected mapping targets, the quota (also under concurrent creations),
 * a taken identifier, and the whole API while the feature is off.
 */
const CALLBACK = "http://localhost:9999/callback";
let op: OpenIdProvider;
let hostile: Server;
let hostileUrl: string;
const namespaces: FreshNamespace[] = [];
const servers: ServerProcess[] = [];
const cwd = mkdtempSync(join(tmpdir(), "authsvc-custom-refusals-"));
/** Loopback allowed, at most 3 providers. */
let loose: GoTrueAdminApi;
/** The test switch off: every provider URL must be https to a public address. */
let strict: GoTrueAdminApi;
/** `CUSTOM_OAUTH_ENABLED=false`. */
let disabled: GoTrueAdminApi;

async function adminOf(env: Record<string, string>): Promise<GoTrueAdminApi> {
  const ns = await migratedNamespace();
  namespaces.push(ns);
  const server = await startServer(productionServerEnv(ns, env), { cwd });
  servers.push(server);
  return new GoTrueAdminApi({
    url: server.url,
    headers: { Authorization: `Bearer ${await roleKey("service_role")}` },
  });
}

/** A discovery server that lies: its documents name private endpoints, or never end. */
function startHostileServer(): Promise<void> {
  hostile = createServer((req, res) => {
    const issuer = `${hostileUrl}${req.url?.replace(/\/\.well-known\/openid-configuration$/, "")}`;
    if (req.url?.startsWith("/metadata")) {
      res.setHeader("content-type", "application/json");
      res.end(
        JSON.stringify({
          issuer,
          authorization_endpoint: `${issuer}/auth`,
          token_endpoint: "http://169.254.169.254/latest/meta-data/",
          jwks_uri: `${issuer}/jwks`,
        }),
      );
    } else if (req.url?.startsWith("/huge")) {
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify({ issuer, padding: "x".repeat(2 * 1024 * 1024) }));
    } else {
      res.writeHead(404).end();
    }
  });
  return new Promise((resolve) =>
    hostile.listen(0, "127.0.0.1", () => {
      hostileUrl = `http://127.0.0.1:${(hostile.address() as AddressInfo).port}`;
      resolve();
    }),
  );
}

beforeAll(async () => {
  op = await startOpenIdProvider([CALLBACK]);
  await startHostileServer();
  [loose, strict, disabled] = await Promise.all([
    adminOf({
      AUTHSVC_CUSTOM_OAUTH_ALLOW_LOOPBACK_FOR_TESTS: "true",
      AUTHSVC_CUSTOM_OAUTH_MAX_PROVIDERS: "3",
    }),
    adminOf({}),
    adminOf({ AUTHSVC_CUSTOM_OAUTH_ENABLED: "false" }),
  ]);
}, 90_000);

afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  await op?.close();
  await new Promise((resolve) => hostile?.close(resolve));
  await Promise.all(namespaces.map((ns) => ns.drop()));
  rmSync(cwd, { recursive: true, force: true });
});

const refusal = (error: unknown) => {
  const e = error as { status?: number; code?: string; message?: string } | null;
  return { status: e?.status, code: e?.code, message: e?.message };
};

describe("URLs authsvc must not call", () => {
  it("with the test switch off: loopback, private, link-local and metadata addresses, and plain http", async () => {
    const urls = [
      `${op.realm}`,
      "https://127.0.0.1/realm",
      "https://[::1]/realm",
      "https://localhost/realm",
      "https://10.0.0.8/realm",
      "https://192.168.1.1/realm",
      "https://169.254.169.254/latest",
      "https://[::ffff:169.254.169.254]/latest",
      "https://[fd00::1]/realm",
      "https://0.0.0.0/realm",
      "https://224.0.0.1/realm",
      "https://user:pw@93.184.216.34/realm",
    ];
    for (const issuer of urls) {
      const { error } = await strict.customProviders.createProvider(
        oidcProviderBody(op, "custom:ssrf", { issuer }),
      );
      expect(refusal(error), issuer).toMatchObject({ status: 400, code: "validation_failed" });
      expect(error?.message, issuer).toMatch(/^issuer is not allowed: /);
    }
    const oauth2 = await strict.customProviders.createProvider(
      oauth2ProviderBody(op, "custom:ssrf", { userinfo_url: "https://169.254.169.254/userinfo" }),
    );
    expect(refusal(oauth2.error)).toMatchObject({ status: 400, code: "validation_failed" });
    expect((await strict.customProviders.listProviders()).data.providers).toEqual([]);
  });

  it("with the test switch on, still private and metadata addresses, and discovery that leads there", async () => {
    for (const issuer of [
      "http://10.0.0.8/realm",
      "http://169.254.169.254/latest",
      "https://192.168.0.1/x",
    ]) {
      const { error } = await loose.customProviders.createProvider(
        oidcProviderBody(op, "custom:ssrf", { issuer }),
      );
      expect(refusal(error), issuer).toMatchObject({ status: 400, code: "validation_failed" });
    }
    const { error } = await loose.customProviders.createProvider(
      oidcProviderBody(op, "custom:ssrf", { issuer: `${hostileUrl}/metadata` }),
    );
    expect(refusal(error)).toMatchObject({ status: 400, code: "validation_failed" });
    expect(error?.message).toContain("token_endpoint: 169.254.169.254 is a private or reserved address");
  });
});

describe("discovery documents that do not hold", () => {
  it("an issuer that differs from the document's, even by a trailing slash; a missing or huge document", async () => {
    const cases: [string, RegExp][] = [
      [`${op.realm}/`, /issuer mismatch/],
      [`${op.realm}/nowhere`, /HTTP 404/],
      [`${hostileUrl}/huge`, /larger than 1048576 bytes/],
    ];
    for (const [issuer, reason] of cases) {
      const { error } = await loose.customProviders.createProvider(
        oidcProviderBody(op, "custom:odd", { issuer }),
      );
      expect(refusal(error), issuer).toMatchObject({ status: 400, code: "validation_failed" });
      expect(error?.message, issuer).toMatch(/^OIDC discovery from ".*" failed: /);
      expect(error?.message, issuer).toMatch(reason);
    }
  });
});

describe("fields the reference refuses", () => {
  it("reserved authorization parameters, protected mapping targets, bad identifiers, missing fields", async () => {
    const bad: [Record<string, unknown>, RegExp][] = [
      [
        { authorization_params: { redirect_uri: "https://evil.example" } },
        /reserved OAuth parameter: redirect_uri/,
      ],
      [{ authorization_params: { nonce: "n" } }, /reserved OAuth parameter: nonce/],
      [{ authorization_params: { prompt: 1 } }, /must be a string/],
      [{ attribute_mapping: { role: "sub" } }, /protected system field: role/],
      [{ attribute_mapping: { email_verified: true } }, /protected system field: email_verified/],
      [{ attribute_mapping: { app_metadata: { admin: true } } }, /protected system field: app_metadata/],
      [{ custom_claims_allowlist: ["groups", " "] }, /non-empty/],
      [{ identifier: "acme" }, /must start with 'custom:'/],
      [{ identifier: "custom:Acme" }, /lowercase/],
      [{ identifier: `custom:${"a".repeat(44)}` }, /at most 50/],
      [{ provider_type: "saml" }, /provider_type must be/],
      [{ client_secret: "" }, /client_secret is required/],
      [{ issuer: undefined }, /issuer is required/],
      [{ name: "n".repeat(101) }, /name must be at most 100/],
    ];
    for (const [fields, reason] of bad) {
      const body = { ...oidcProviderBody(op, "custom:fields"), ...fields };
      const { error } = await loose.customProviders.createProvider(body as never);
      expect(refusal(error), JSON.stringify(fields)).toMatchObject({
        status: 400,
        code: "validation_failed",
      });
      expect(error?.message, JSON.stringify(fields)).toMatch(reason);
    }
    const notJson = await loose.customProviders.createProvider({ scopes: "openid" } as never);
    expect(refusal(notJson.error)).toMatchObject({ status: 400, code: "validation_failed" });
    const badPath = await loose.customProviders.getProvider("acme");
    expect(refusal(badPath.error)).toMatchObject({ status: 400, code: "validation_failed" });
    const badType = await loose.customProviders.listProviders({ type: "saml" as never });
    expect(refusal(badType.error)).toMatchObject({ status: 400, code: "validation_failed" });
    expect((await loose.customProviders.listProviders()).data.providers).toEqual([]);
  });
});

describe("the quota and the identifier", () => {
  it("a taken identifier is a conflict; the quota holds under 8 concurrent creations", async () => {
    expect(
      (await loose.customProviders.createProvider(oauth2ProviderBody(op, "custom:first"))).error,
    ).toBeNull();
    const again = await loose.customProviders.createProvider(oauth2ProviderBody(op, "custom:first"));
    expect(refusal(again.error)).toMatchObject({ status: 400, code: "conflict" });
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        loose.customProviders.createProvider(oauth2ProviderBody(op, `custom:race-${i}`)),
      ),
    );
    expect(results.filter((r) => r.error === null)).toHaveLength(2);
    for (const r of results.filter((r) => r.error !== null)) {
      expect(refusal(r.error)).toMatchObject({ status: 400, code: "over_custom_provider_quota" });
    }
    expect((await loose.customProviders.listProviders()).data.providers).toHaveLength(3);
    const update = await loose.customProviders.updateProvider("custom:first", {
      token_url: "https://169.254.169.254/token",
    });
    expect(refusal(update.error)).toMatchObject({ status: 400, code: "validation_failed" });
    const kept = await loose.customProviders.getProvider("custom:first");
    expect(kept.data?.token_url).toBe(`${op.realm}/protocol/openid-connect/token`);
  });
});

describe("CUSTOM_OAUTH_ENABLED=false", () => {
  it("answers the admin API 404 feature_disabled and refuses sign-in", async () => {
    const list = await disabled.customProviders.listProviders();
    expect(refusal(list.error)).toMatchObject({ status: 404, code: "feature_disabled" });
    const created = await disabled.customProviders.createProvider(oauth2ProviderBody(op, "custom:off"));
    expect(refusal(created.error)).toMatchObject({ status: 404, code: "feature_disabled" });
    const signIn = await fetch(`${servers[2]?.url}/authorize?provider=custom:off`, { redirect: "manual" });
    expect(signIn.status).toBe(400);
    expect(await signIn.json()).toMatchObject({ error_code: "validation_failed" });
  });
});
