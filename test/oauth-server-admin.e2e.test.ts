import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type FreshNamespace, migratedNamespace } from "@authsvc/adapters/testing";
import { roleKey } from "@authsvc/http/testing";
import { GoTrueAdminApi } from "@supabase/auth-js";
import { decodeJwt } from "jose";
import * as oauth from "oauth4webapi";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signedInUser, startOAuthServer } from "./support/oauth-server.js";
import type { ServerProcess } from "./support/server-process.js";

/**
 * The OAuth server's client administration through auth-js (`admin.oauth.*`), registration's rules,
 * and the server switched off.
 */
let ns: FreshNamespace;
let server: (ServerProcess & { issuer: string }) | undefined;
let admin: GoTrueAdminApi;
const cwd = mkdtempSync(join(tmpdir(), "authsvc-oauth-admin-"));

beforeAll(async () => {
  ns = await migratedNamespace();
}, 60_000);

afterAll(async () => {
  await server?.stop();
  await ns?.drop();
  rmSync(cwd, { recursive: true, force: true });
});

async function restart(extra: Record<string, string> = {}, basePath = "") {
  await server?.stop();
  server = await startOAuthServer(ns, cwd, extra, basePath);
  admin = new GoTrueAdminApi({
    url: server.url,
    headers: { Authorization: `Bearer ${await roleKey("service_role")}` },
  });
  return server;
}

const post = (url: string, body: unknown) =>
  fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

describe("OAuth server administration", () => {
  it("creates, lists, reads, updates, regenerates the secret of and deletes a client (auth-js admin.oauth)", async () => {
    const { url } = await restart();
    const created = await admin.oauth.createClient({
      client_name: "Dashboard",
      client_uri: "https://dashboard.example",
      redirect_uris: ["https://dashboard.example/cb", "myapp://callback"],
    });
    expect(created.error).toBeNull();
    const client = created.data;
    expect(client).toMatchObject({
      client_name: "Dashboard",
      client_type: "confidential",
      token_endpoint_auth_method: "client_secret_basic",
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      registration_type: "manual",
      redirect_uris: ["https://dashboard.example/cb", "myapp://callback"],
    });
    const id = client?.client_id as string;
    const firstSecret = client?.client_secret as string;
    // Only a hash is stored.
    const [row] = await ns.sql`
      select client_secret_hash from ${ns.sql(ns.namespace)}.oauth_clients where id = ${id}`;
    expect(row?.client_secret_hash).not.toContain(firstSecret);
    expect(row?.client_secret_hash).toHaveLength(64);

    const listed = await admin.oauth.listClients();
    expect(listed.error).toBeNull();
    expect(listed.data?.clients.map((c) => c.client_id)).toContain(id);
    expect(listed.data?.clients.every((c) => c.client_secret === undefined)).toBe(true);
    // Paged: auth-js reads the page numbers from `Link` and the total from `X-Total-Count`.
    const [{ n: total = 0 } = {}] = await ns.sql<{ n: number }[]>`
      select count(*)::int as n from ${ns.sql(ns.namespace)}.oauth_clients where deleted_at is null`;
    const first = await admin.oauth.listClients({ page: 1, perPage: 1 });
    expect(first.data).toMatchObject({ total, lastPage: total });
    expect(first.data?.clients).toHaveLength(1);
    expect((await admin.oauth.getClient(id)).data).toMatchObject({ client_id: id, client_name: "Dashboard" });

    const updated = await admin.oauth.updateClient(id, {
      client_name: "Renamed",
      token_endpoint_auth_method: "client_secret_post",
    });
    expect(updated.data).toMatchObject({
      client_name: "Renamed",
      token_endpoint_auth_method: "client_secret_post",
    });
    const noneForConfidential = await admin.oauth.updateClient(id, { token_endpoint_auth_method: "none" });
    expect(noneForConfidential.error?.status).toBe(400);
    const empty = await fetch(`${url}/admin/oauth/clients/${id}`, {
      method: "PUT",
      headers: {
        authorization: `Bearer ${await roleKey("service_role")}`,
        "content-type": "application/json",
      },
      body: "{}",
    });
    expect(empty.status).toBe(400);
    expect(await empty.json()).toMatchObject({ msg: "No fields provided for update" });

    const regenerated = await admin.oauth.regenerateClientSecret(id);
    expect(regenerated.data?.client_secret).toBeDefined();
    expect(regenerated.data?.client_secret).not.toBe(firstSecret);

    expect((await admin.oauth.deleteClient(id)).error).toBeNull();
    expect((await admin.oauth.getClient(id)).error?.status).toBe(404);
    expect((await admin.oauth.deleteClient(id)).error?.status).toBe(404);
    expect((await admin.oauth.getClient("not-a-uuid")).error?.status).toBe(400);
  });

  it("refuses what registration must not accept", async () => {
    const { url } = await restart();
    const register = (body: Record<string, unknown>) => post(`${url}/oauth/clients/register`, body);
    for (const redirect of [
      "javascript://x/alert(1)",
      "http://example.com/cb",
      "https://app.example/cb#frag",
      "myapp:/cb",
      "data://text/html",
    ]) {
      const response = await register({ redirect_uris: [redirect] });
      expect(response.status, redirect).toBe(400);
      expect(await response.json()).toMatchObject({ error_code: "validation_failed" });
    }
    for (const body of [
      {},
      { redirect_uris: [] },
      { redirect_uris: "https://app.example/cb" },
      { redirect_uris: ["https://app.example/cb"], grant_types: ["client_credentials"] },
      { redirect_uris: ["https://app.example/cb"], grant_types: [] },
      {
        redirect_uris: ["https://app.example/cb"],
        client_type: "public",
        token_endpoint_auth_method: "client_secret_basic",
      },
      {
        redirect_uris: ["https://app.example/cb"],
        client_type: "confidential",
        token_endpoint_auth_method: "none",
      },
      { redirect_uris: ["https://app.example/cb"], logo_uri: "not a url" },
      { redirect_uris: Array.from({ length: 11 }, (_, i) => `https://app.example/${i}`) },
    ]) {
      const response = await register(body);
      expect(response.status, JSON.stringify(body)).toBe(400);
    }
    const confidential = await register({ redirect_uris: ["https://app.example/cb"], client_name: "RP" });
    expect(confidential.status).toBe(201);
    expect(await confidential.json()).toMatchObject({
      client_type: "confidential",
      token_endpoint_auth_method: "client_secret_basic",
      registration_type: "dynamic",
      client_secret: expect.any(String),
      client_secret_expires_at: 0,
    });
    const bad = await fetch(`${url}/oauth/clients/register`, { method: "POST", body: "{not json" });
    expect(bad.status).toBe(400);
  });

  it("answers 403 for registration when dynamic registration is off", async () => {
    const { url } = await restart({ AUTHSVC_OAUTH_SERVER_ALLOW_DYNAMIC_REGISTRATION: "false" });
    const response = await post(`${url}/oauth/clients/register`, {
      redirect_uris: ["https://app.example/cb"],
    });
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ error_code: "oauth_dynamic_client_registration_disabled" });
    const discovery = (await (await fetch(`${url}/.well-known/openid-configuration`)).json()) as Record<
      string,
      unknown
    >;
    expect(discovery.registration_endpoint).toBeUndefined();
  });

  it("limits dynamic registration per client address, without RATE_LIMIT_HEADER", async () => {
    const { url } = await restart({ AUTHSVC_RATE_LIMIT_OAUTH_DYNAMIC_CLIENT_REGISTER: "1" });
    // Every registration of this file comes from this address: count from none, and leave none.
    const limits = ns.sql`${ns.sql(ns.namespace)}.request_limits`;
    await ns.sql`delete from ${limits}`;
    try {
      const body = { redirect_uris: ["https://app.example/cb"], token_endpoint_auth_method: "none" };
      const statuses: number[] = [];
      // The reference's burst of 30, then the rate of 1 per 5 minutes.
      for (let i = 0; i < 31; i++) statuses.push((await post(`${url}/oauth/clients/register`, body)).status);
      expect(statuses.slice(0, 30).every((s) => s === 201)).toBe(true);
      expect(statuses[30]).toBe(429);
    } finally {
      await ns.sql`delete from ${limits}`;
    }
  });

  it("is discovered under an issuer with a path, in the OpenID and the RFC 8414 path-insertion forms", async () => {
    const { issuer } = await restart({}, "/auth/v1");
    const insecure = { [oauth.allowInsecureRequests]: true } as const;
    const at = new URL(issuer);
    for (const algorithm of ["oidc", "oauth2"] as const) {
      const request = await oauth.discoveryRequest(at, { algorithm, ...insecure });
      const metadata = await oauth.processDiscoveryResponse(at, request);
      expect(metadata.issuer).toBe(issuer);
      expect(metadata.token_endpoint).toBe(`${issuer}/oauth/token`);
    }
    // The advertised endpoints answer there.
    const registered = await post(`${issuer}/oauth/clients/register`, { redirect_uris: ["myapp://cb"] });
    expect(registered.status).toBe(201);
  });

  it("answers 404 feature_disabled on every route when the server is off, but serves OpenID discovery", async () => {
    const { url } = await restart({ AUTHSVC_OAUTH_SERVER_ENABLED: "false" });
    const key = `Bearer ${await roleKey("service_role")}`;
    const id = "9b7b5f3e-6f0a-4c1e-9a57-3f2d1c0b4a11";
    for (const [method, path] of [
      ["GET", "/oauth/authorize?client_id=x&redirect_uri=y"],
      ["GET", "/oauth/authorizations/abc"],
      ["POST", "/oauth/authorizations/abc/consent"],
      ["POST", "/oauth/token"],
      ["GET", "/oauth/userinfo"],
      ["POST", "/oauth/clients/register"],
      ["POST", "/oauth/revoke"],
      ["POST", "/oauth/introspect"],
      ["GET", "/user/oauth/grants"],
      ["DELETE", `/user/oauth/grants?client_id=${id}`],
      ["POST", "/admin/oauth/clients"],
      ["GET", "/admin/oauth/clients"],
      ["GET", `/admin/oauth/clients/${id}`],
      ["PUT", `/admin/oauth/clients/${id}`],
      ["DELETE", `/admin/oauth/clients/${id}`],
      ["POST", `/admin/oauth/clients/${id}/regenerate_secret`],
      ["GET", "/.well-known/oauth-authorization-server"],
      ["GET", "/.well-known/oauth-authorization-server/auth/v1"],
    ] as const) {
      const response = await fetch(`${url}${path}`, { method, headers: { authorization: key } });
      expect(response.status, path).toBe(404);
      expect(await response.json(), path).toMatchObject({ error_code: "feature_disabled" });
    }
    const discovery = await fetch(`${url}/.well-known/openid-configuration`);
    expect(discovery.status).toBe(200);
    expect(discovery.headers.get("cache-control")).toBe("public, max-age=600");
    expect(((await discovery.json()) as Record<string, unknown>).registration_endpoint).toBeUndefined();
  });

  it("refuses an ID token without an asymmetric signing key, before the code is spent", async () => {
    const started = await restart({ AUTHSVC_JWT_KEYS: "" });
    const { url } = started;
    // Said at start, where the operator looks.
    expect(started.lines().some((l) => String(l.msg).includes("need an asymmetric signing key"))).toBe(true);
    const created = await post(`${url}/oauth/clients/register`, {
      redirect_uris: ["http://localhost:8123/cb"],
      token_endpoint_auth_method: "none",
    });
    const { client_id: clientId } = (await created.json()) as { client_id: string };
    const authorize = await fetch(
      `${url}/oauth/authorize?${new URLSearchParams({
        client_id: clientId,
        redirect_uri: "http://localhost:8123/cb",
        scope: "openid",
        code_challenge: await oauth.calculatePKCECodeChallenge("x".repeat(43)),
        code_challenge_method: "S256",
      })}`,
      { redirect: "manual" },
    );
    expect(authorize.status).toBe(302);
    const authorizationId = new URL(authorize.headers.get("location") as string).searchParams.get(
      "authorization_id",
    );
    const who = await signedInUser(url);
    const approved = await who.client.oauth.approveAuthorization(authorizationId as string, {
      skipBrowserRedirect: true,
    });
    expect(approved.error?.status).toBe(404);
    await who.client.oauth.getAuthorizationDetails(authorizationId as string);
    const done = await who.client.oauth.approveAuthorization(authorizationId as string, {
      skipBrowserRedirect: true,
    });
    const code = new URL((done.data as { redirect_url: string }).redirect_url).searchParams.get(
      "code",
    ) as string;
    const token = (verifier: string) =>
      post(`${url}/oauth/token`, {
        grant_type: "authorization_code",
        code,
        code_verifier: verifier,
        client_id: clientId,
      });
    const refused = await token("x".repeat(43));
    expect(refused.status).toBe(500);
    expect(await refused.json()).toMatchObject({ error: "server_error" });
    const [row] = await ns.sql`
      select count(*)::int as n from ${ns.sql(ns.namespace)}.oauth_authorizations where client_id = ${clientId}`;
    expect(row?.n).toBe(1);
  });

  it("runs the custom access token hook on a client's tokens, which it sees with client_id and scope", async () => {
    await ns.sql.unsafe(`
      create or replace function ${ns.namespace}.oauth_claims(event jsonb) returns jsonb language sql as $$
        select jsonb_build_object('claims', (event->'claims') || jsonb_build_object(
          'seen_client', event->'claims'->>'client_id', 'seen_scope', event->'claims'->>'scope'))
      $$`);
    const { url } = await restart({
      AUTHSVC_HOOK_CUSTOM_ACCESS_TOKEN_ENABLED: "true",
      AUTHSVC_HOOK_CUSTOM_ACCESS_TOKEN_URI: `pg-functions://postgres/${ns.namespace}/oauth_claims`,
    });
    const redirect = "http://localhost:8123/cb";
    const created = await post(`${url}/oauth/clients/register`, {
      redirect_uris: [redirect],
      token_endpoint_auth_method: "none",
    });
    const { client_id: clientId } = (await created.json()) as { client_id: string };
    const verifier = oauth.generateRandomCodeVerifier();
    const started = await fetch(
      `${url}/oauth/authorize?${new URLSearchParams({
        client_id: clientId,
        redirect_uri: redirect,
        scope: "email profile",
        code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
        code_challenge_method: "S256",
      })}`,
      { redirect: "manual" },
    );
    const authorizationId = new URL(started.headers.get("location") as string).searchParams.get(
      "authorization_id",
    ) as string;
    const who = await signedInUser(url);
    expect((await who.client.oauth.getAuthorizationDetails(authorizationId)).error).toBeNull();
    const approved = await who.client.oauth.approveAuthorization(authorizationId, {
      skipBrowserRedirect: true,
    });
    const code = new URL((approved.data as { redirect_url: string }).redirect_url).searchParams.get("code");
    // A JSON body, as the token endpoint also accepts.
    const exchanged = await post(`${url}/oauth/token`, {
      grant_type: "authorization_code",
      code,
      code_verifier: verifier,
      client_id: clientId,
    });
    expect(exchanged.status).toBe(200);
    const { access_token: accessToken } = (await exchanged.json()) as { access_token: string };
    expect(decodeJwt(accessToken)).toMatchObject({
      client_id: clientId,
      scope: "email profile",
      seen_client: clientId,
      seen_scope: "email profile",
    });
  });
});
