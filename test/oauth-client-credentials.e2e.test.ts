import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type FreshNamespace, migratedNamespace } from "@authsvc/adapters/testing";
import { roleKey } from "@authsvc/http/testing";
import { createRemoteJWKSet, decodeJwt, jwtVerify } from "jose";
import * as oauth from "oauth4webapi";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insecure, REDIRECT, relyingParty } from "./support/oauth-relying-party.js";
import { startOAuthServer } from "./support/oauth-server.js";
import type { ServerProcess } from "./support/server-process.js";

/**
 * Machine clients (`grant_type=client_credentials`, RFC 6749 §4.4) and custom scopes, driven by an
 * independent relying party (oauth4webapi) against the built server: the admin defines scopes and
 * creates a confidential client with the grant; the client's own token, its claims, where it is
 * refused; a custom scope through authorize, consent and the code exchange.
 */
type RelyingParty = Awaited<ReturnType<typeof relyingParty>>;
let ns: FreshNamespace;
let server: ServerProcess & { issuer: string };
let rp: RelyingParty;
let service: Record<string, string>;
const MCP = "https://mcp.example/mcp";
const cwd = mkdtempSync(join(tmpdir(), "authsvc-machine-"));

beforeAll(async () => {
  ns = await migratedNamespace();
  server = await startOAuthServer(ns, cwd, {
    AUTHSVC_OAUTH_SERVER_ALLOWED_RESOURCES: "https://mcp.example/**",
  });
  service = { authorization: `Bearer ${await roleKey("service_role")}`, "content-type": "application/json" };
  for (const scope of [
    { scope: "files:read", description: "Read your files" },
    { scope: "mcp:tools", resource: MCP, description: "Run the MCP server's tools" },
  ]) {
    const made = await fetch(`${server.url}/admin/oauth/scopes`, {
      method: "POST",
      headers: service,
      body: JSON.stringify(scope),
    });
    expect(made.status).toBe(201);
  }
  rp = await relyingParty(server);
}, 60_000);

afterAll(async () => {
  await server?.stop();
  await ns?.drop();
  rmSync(cwd, { recursive: true, force: true });
});

/** `POST /admin/oauth/clients` with `body`: the answer's status and JSON. */
async function createClient(body: Record<string, unknown>) {
  const response = await fetch(`${server.url}/admin/oauth/clients`, {
    method: "POST",
    headers: service,
    body: JSON.stringify({ redirect_uris: ["https://svc.example/cb"], ...body }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** A confidential client with the grant and `scope`, as oauth4webapi holds it. */
async function machineClient(scope = "files:read mcp:tools") {
  const made = await createClient({ client_name: "Nightly job", grant_types: ["client_credentials"], scope });
  expect(made.status).toBe(201);
  expect(made.body).toMatchObject({
    grant_types: ["client_credentials"],
    scope,
    client_type: "confidential",
  });
  const client: oauth.Client = { client_id: made.body.client_id as string };
  return { client, auth: oauth.ClientSecretBasic(made.body.client_secret as string) };
}

const grant = (client: oauth.Client, auth: oauth.ClientAuth, parameters: Record<string, string> = {}) =>
  oauth.clientCredentialsGrantRequest(rp.as, client, auth, parameters, insecure);

describe("client_credentials (RFC 6749 §4.4)", () => {
  it("is advertised, with the custom scopes", () => {
    expect(rp.as.grant_types_supported).toContain("client_credentials");
    expect(rp.as.scopes_supported).toEqual(expect.arrayContaining(["openid", "files:read", "mcp:tools"]));
  });

  it("issues a confidential client its own token: its scopes, the resource in aud, no refresh or ID token", async () => {
    const { client, auth } = await machineClient();
    const tokens = await oauth.processClientCredentialsResponse(
      rp.as,
      client,
      await grant(client, auth, { scope: "mcp:tools", resource: MCP }),
    );
    expect(tokens.refresh_token).toBeUndefined();
    expect(tokens.id_token).toBeUndefined();
    expect(tokens.scope).toBe("mcp:tools");
    const jwks = createRemoteJWKSet(new URL(rp.as.jwks_uri as string));
    const { payload } = await jwtVerify(tokens.access_token, jwks, { issuer: server.issuer, audience: MCP });
    expect(payload).toMatchObject({
      sub: client.client_id,
      client_id: client.client_id,
      scope: "mcp:tools",
      aud: MCP,
      role: "anon",
    });
    expect(typeof payload.jti).toBe("string");
    expect((payload.exp as number) - (payload.iat as number)).toBe(tokens.expires_in);
    expect(payload).not.toHaveProperty("session_id");
    // None asked and no resource: every allowed scope but the one bound to a resource.
    const all = await oauth.processClientCredentialsResponse(rp.as, client, await grant(client, auth));
    expect(decodeJwt(all.access_token)).toMatchObject({ scope: "files:read" });
    expect(decodeJwt(all.access_token)).not.toHaveProperty("aud");
  });

  it("refuses what RFC 6749 and RFC 8707 name: wrong secret, no grant, public client, scope, resource", async () => {
    const { client, auth } = await machineClient("files:read");
    const expectError = async (response: Response, status: number, error: string) => {
      expect(response.status).toBe(status);
      const body = (await response.json()) as Record<string, string>;
      expect(body.error ?? body.error_code).toBe(error);
    };
    await expectError(
      await grant(client, oauth.ClientSecretBasic("wrong-secret")),
      400,
      "invalid_credentials",
    );
    await expectError(await grant(client, auth, { scope: "files:read email" }), 400, "invalid_scope");
    await expectError(await grant(client, auth, { scope: "mcp:tools", resource: MCP }), 400, "invalid_scope");
    await expectError(
      await grant(client, auth, { resource: "https://evil.example/mcp" }),
      400,
      "invalid_target",
    );
    // A confidential client without the grant: unauthorized for it (RFC 6749 §5.2).
    const plain = await rp.createConfidentialClient("client_secret_post");
    await expectError(await grant(plain.client, plain.auth), 400, "unauthorized_client");
    // A public client: no admin gives it the grant, no registration takes it, and it cannot ask for it.
    expect(
      (await createClient({ token_endpoint_auth_method: "none", grant_types: ["client_credentials"] }))
        .status,
    ).toBe(400);
    const registered = await fetch(rp.as.registration_endpoint as string, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ redirect_uris: [REDIRECT], grant_types: ["client_credentials"] }),
    });
    expect(registered.status).toBe(400);
    const publicClient = await rp.registerPublicClient();
    await expectError(await grant(publicClient, oauth.None()), 400, "unauthorized_client");
  });

  it("is refused on the user's side and the admin API, introspected as active, and cannot be revoked", async () => {
    const { client, auth } = await machineClient("files:read");
    const { access_token: token } = await oauth.processClientCredentialsResponse(
      rp.as,
      client,
      await grant(client, auth),
    );
    const bearer = { authorization: `Bearer ${token}` };
    for (const [path, code] of [
      ["/user", "bad_jwt"],
      ["/oauth/userinfo", "bad_jwt"],
      ["/user/oauth/grants", "bad_jwt"],
      ["/admin/users", "not_admin"],
    ] as const) {
      const answer = await fetch(`${server.url}${path}`, { headers: bearer });
      expect([path, answer.status, ((await answer.json()) as { error_code?: string }).error_code]).toEqual([
        path,
        403,
        code,
      ]);
    }
    const seen = await oauth.processIntrospectionResponse(
      rp.as,
      client,
      await oauth.introspectionRequest(rp.as, client, auth, token, insecure),
    );
    expect(seen).toMatchObject({
      active: true,
      client_id: client.client_id,
      sub: client.client_id,
      scope: "files:read",
    });
    // Another client's introspection learns nothing about it.
    const other = await machineClient("files:read");
    const hidden = await oauth.processIntrospectionResponse(
      rp.as,
      other.client,
      await oauth.introspectionRequest(rp.as, other.client, other.auth, token, insecure),
    );
    expect(hidden.active).toBe(false);
    // RFC 7009 §2.2.1: a self-contained token without a session cannot be revoked, and the client is told.
    const revoked = await oauth.revocationRequest(rp.as, client, auth, token, insecure);
    expect(revoked.status).toBe(400);
    expect(await revoked.json()).toMatchObject({ error: "unsupported_token_type" });
  });
});

describe("custom scopes at /oauth/authorize", () => {
  it("are shown with their description, granted on consent and carried by the user's token", async () => {
    const client = await rp.registerPublicClient();
    const started = await rp.authorize(client, "openid files:read");
    const { landing, details } = await rp.approve(started);
    expect(details.data).toMatchObject({
      scope: "openid files:read",
      scopes: [
        { scope: "openid", description: null },
        { scope: "files:read", description: "Read your files" },
      ],
    });
    const params = oauth.validateAuthResponse(rp.as, client, landing, started.state);
    const tokens = await oauth.processAuthorizationCodeResponse(
      rp.as,
      client,
      await oauth.authorizationCodeGrantRequest(
        rp.as,
        client,
        oauth.None(),
        params,
        REDIRECT,
        started.verifier,
        insecure,
      ),
      { expectedNonce: started.nonce, requireIdToken: true },
    );
    expect(decodeJwt(tokens.access_token)).toMatchObject({
      client_id: client.client_id,
      scope: "openid files:read",
    });
    // Refresh tokens are issued as the reference does (OAUTH_SERVER_REFRESH_TOKEN_NEEDS_OFFLINE_ACCESS off).
    expect(typeof tokens.refresh_token).toBe("string");
  });

  it("refuses an unknown scope, and a scope bound to a resource without it (invalid_scope)", async () => {
    const client = await rp.registerPublicClient();
    for (const scope of ["email nope", "email mcp:tools"]) {
      const url = new URL(rp.as.authorization_endpoint as string);
      url.search = new URLSearchParams({
        client_id: client.client_id,
        redirect_uri: REDIRECT,
        response_type: "code",
        scope,
        code_challenge: "c".repeat(43),
        code_challenge_method: "S256",
      }).toString();
      const answer = await fetch(url, { redirect: "manual" });
      expect(answer.status).toBe(400);
      expect(await answer.json()).toMatchObject({ error: "invalid_scope" });
    }
  });

  it("lists and deletes custom scopes through the admin API", async () => {
    const made = await fetch(`${server.url}/admin/oauth/scopes`, {
      method: "POST",
      headers: service,
      body: JSON.stringify({ scope: "tmp:x", description: "Temporary" }),
    });
    expect(made.status).toBe(201);
    const again = await fetch(`${server.url}/admin/oauth/scopes`, {
      method: "POST",
      headers: service,
      body: JSON.stringify({ scope: "tmp:x", description: "Temporary" }),
    });
    expect(again.status).toBe(409);
    const listed = (await (await fetch(`${server.url}/admin/oauth/scopes`, { headers: service })).json()) as {
      scopes: { scope: string; resource: string | null }[];
    };
    expect(listed.scopes.map((s) => s.scope)).toEqual(["files:read", "mcp:tools", "tmp:x"]);
    expect(listed.scopes[1]).toMatchObject({ resource: MCP });
    const gone = await fetch(`${server.url}/admin/oauth/scopes?scope=tmp%3Ax`, {
      method: "DELETE",
      headers: service,
    });
    expect(gone.status).toBe(204);
    const missing = await fetch(`${server.url}/admin/oauth/scopes?scope=tmp%3Ax`, {
      method: "DELETE",
      headers: service,
    });
    expect(missing.status).toBe(404);
  });
});
