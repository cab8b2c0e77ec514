import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type FreshNamespace, migratedNamespace } from "@authsvc/adapters/testing";
import { roleKey, TEST_JWT_SECRET } from "@authsvc/http/testing";
import { createRemoteJWKSet, decodeJwt, jwtVerify, SignJWT } from "jose";
import * as oauth from "oauth4webapi";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insecure, REDIRECT, relyingParty } from "./support/oauth-relying-party.js";
import { startOAuthServer } from "./support/oauth-server.js";
import type { ServerProcess } from "./support/server-process.js";

/**
 * Token exchange (RFC 8693) for agents acting for a user, driven by oauth4webapi's generic grant: an
 * agent client, given the grant type and a downstream audience by the admin, exchanges the token a
 * user's consent gave it for a token to the downstream resource, which a resource server verifies
 * by the JWKS; and every refusal the policy names, with its audit entry.
 */
const TOKEN_EXCHANGE = "urn:ietf:params:oauth:grant-type:token-exchange";
const ACCESS_TOKEN = "urn:ietf:params:oauth:token-type:access_token";
const DOWNSTREAM = "https://downstream.example/mcp";

type RelyingParty = Awaited<ReturnType<typeof relyingParty>>;
let ns: FreshNamespace;
let server: ServerProcess & { issuer: string };
let rp: RelyingParty;
let serviceRole: string;
const cwd = mkdtempSync(join(tmpdir(), "authsvc-exchange-"));

beforeAll(async () => {
  ns = await migratedNamespace();
  server = await startOAuthServer(ns, cwd);
  rp = await relyingParty(server);
  serviceRole = await roleKey("service_role");
}, 60_000);

afterAll(async () => {
  await server?.stop();
  await ns?.drop();
  rmSync(cwd, { recursive: true, force: true });
});

const adminHeaders = () => ({ authorization: `Bearer ${serviceRole}`, "content-type": "application/json" });

/** A confidential client the admin creates with `fields` (the admin API, raw: auth-js sends only its own). */
async function adminClient(fields: Record<string, unknown>) {
  const response = await fetch(`${server.url}/admin/oauth/clients`, {
    method: "POST",
    headers: adminHeaders(),
    body: JSON.stringify({
      client_name: "Agent",
      redirect_uris: [REDIRECT],
      token_endpoint_auth_method: "client_secret_basic",
      ...fields,
    }),
  });
  expect(response.status).toBe(201);
  const body = (await response.json()) as Record<string, unknown>;
  const client: oauth.Client = { client_id: body.client_id as string };
  return { client, auth: oauth.ClientSecretBasic(body.client_secret as string), body };
}

const exchangeRequest = (
  c: { client: oauth.Client; auth: oauth.ClientAuth },
  parameters: Record<string, string>,
) =>
  oauth.genericTokenEndpointRequest(
    rp.as,
    c.client,
    c.auth,
    TOKEN_EXCHANGE,
    { subject_token_type: ACCESS_TOKEN, resource: DOWNSTREAM, ...parameters },
    insecure,
  );

/** An exchange oauth4webapi processes: the token response, or the refusal it throws. */
const exchange = async (
  c: { client: oauth.Client; auth: oauth.ClientAuth },
  parameters: Record<string, string>,
) => oauth.processGenericTokenEndpointResponse(rp.as, c.client, await exchangeRequest(c, parameters));

/** How a refused exchange is answered: 400 and the OAuth error. */
async function refusal(
  c: { client: oauth.Client; auth: oauth.ClientAuth },
  parameters: Record<string, string>,
) {
  const response = await exchangeRequest(c, parameters);
  expect(response.status).toBe(400);
  expect(response.headers.get("cache-control")).toBe("no-store");
  return (await response.json()) as { error: string; error_description: string };
}

async function auditEntries(action: string) {
  const response = await fetch(`${server.url}/admin/audit?per_page=200`, { headers: adminHeaders() });
  expect(response.status).toBe(200);
  const entries = (await response.json()) as { payload: Record<string, unknown> }[];
  return entries.map((e) => e.payload).filter((p) => p.action === action);
}

describe("token exchange (RFC 8693) with oauth4webapi's generic grant", () => {
  it("is in the metadata and given by the admin, answered back, never by registration", async () => {
    expect(rp.as.grant_types_supported).toContain(TOKEN_EXCHANGE);
    const agent = await adminClient({
      grant_types: ["authorization_code", "refresh_token", TOKEN_EXCHANGE],
      token_exchange_audiences: [DOWNSTREAM],
    });
    expect(agent.body).toMatchObject({
      grant_types: ["authorization_code", "refresh_token", TOKEN_EXCHANGE],
      token_exchange_audiences: [DOWNSTREAM],
      token_exchange_impersonation: false,
    });
    const registered = await fetch(rp.as.registration_endpoint as string, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ redirect_uris: [REDIRECT], grant_types: [TOKEN_EXCHANGE] }),
    });
    expect(registered.status).toBe(400);
    const read = await fetch(`${server.url}/admin/oauth/clients/${agent.client.client_id}`, {
      headers: adminHeaders(),
    });
    expect(await read.json()).toMatchObject({ token_exchange_audiences: [DOWNSTREAM] });
  });

  it("delegates: the agent exchanges the user's token for a downstream token with act, aud, narrowed scope", async () => {
    const agent = await adminClient({
      grant_types: ["authorization_code", "refresh_token", TOKEN_EXCHANGE],
      token_exchange_audiences: [DOWNSTREAM],
    });
    const { tokens, who } = await rp.codeFlow(agent.client, agent.auth, "openid email profile");
    const exchanged = await exchange(agent, { subject_token: tokens.access_token, scope: "email" });
    expect(exchanged).toMatchObject({
      token_type: "bearer",
      scope: "email",
      issued_token_type: ACCESS_TOKEN,
    });
    expect(exchanged.refresh_token).toBeUndefined();
    expect(exchanged.expires_in).toBeGreaterThan(0);
    expect(exchanged.expires_in).toBeLessThanOrEqual(3600);
    // The downstream resource server verifies it by the JWKS, for its own audience.
    const jwks = createRemoteJWKSet(new URL(rp.as.jwks_uri as string));
    const { payload } = await jwtVerify(exchanged.access_token, jwks, {
      issuer: server.issuer,
      audience: DOWNSTREAM,
      algorithms: ["RS256"],
    });
    expect(payload).toMatchObject({
      sub: who.user.id,
      client_id: agent.client.client_id,
      aud: DOWNSTREAM,
      scope: "email",
      act: { sub: agent.client.client_id },
      session_id: decodeJwt(tokens.access_token).session_id,
    });
    expect(payload.exp).toBeLessThanOrEqual(decodeJwt(tokens.access_token).exp as number);
    // A second hop nests act (RFC 8693 §4.1) and never widens.
    const again = await exchange(agent, { subject_token: exchanged.access_token });
    expect(decodeJwt(again.access_token)).toMatchObject({
      scope: "email",
      act: { sub: agent.client.client_id, act: { sub: agent.client.client_id } },
    });
    // The user's account is no agent's: the exchanged token is refused at /user, also for its audience.
    for (const headers of [{}, { "x-jwt-aud": DOWNSTREAM }] as Record<string, string>[]) {
      const user = await fetch(`${server.url}/user`, {
        headers: { authorization: `Bearer ${exchanged.access_token}`, ...headers },
      });
      expect(user.status).toBe(403);
      expect(await user.json()).toMatchObject({ error_code: "bad_jwt" });
    }
    const adminUse = await fetch(`${server.url}/admin/users`, {
      headers: { authorization: `Bearer ${exchanged.access_token}` },
    });
    expect(adminUse.status).toBe(403);
    // At /oauth/userinfo (for its audience) it reads only its narrowed scope: no profile claims.
    const info = await fetch(`${server.url}/oauth/userinfo`, {
      headers: { authorization: `Bearer ${exchanged.access_token}`, "x-jwt-aud": DOWNSTREAM },
    });
    expect(info.status).toBe(200);
    const claims = (await info.json()) as Record<string, unknown>;
    expect(claims).toMatchObject({ sub: who.user.id, email: who.email });
    expect(claims.name).toBeUndefined();
    // Introspection by the agent: live, with its own (narrowed) scope, audience and actor.
    const introspected = await oauth.processIntrospectionResponse(
      rp.as,
      agent.client,
      await oauth.introspectionRequest(rp.as, agent.client, agent.auth, exchanged.access_token, insecure),
    );
    expect(introspected).toMatchObject({
      active: true,
      scope: "email",
      aud: DOWNSTREAM,
      act: { sub: agent.client.client_id },
    });
    // Audited: who, for whom, which client and audience, delegation.
    const audited = await auditEntries("token_exchanged");
    expect(audited).toContainEqual(
      expect.objectContaining({
        actor_id: who.user.id,
        log_type: "token",
        traits: expect.objectContaining({
          client_id: agent.client.client_id,
          subject_client_id: agent.client.client_id,
          audience: [DOWNSTREAM],
          scope: "email",
          mode: "delegation",
        }),
      }),
    );
  });

  it("refuses a client without the grant type, impersonation without permission, and a wider scope", async () => {
    const plain = await adminClient({});
    const plainTokens = await rp.codeFlow(plain.client, plain.auth, "email");
    expect(await refusal(plain, { subject_token: plainTokens.tokens.access_token })).toMatchObject({
      error: "unauthorized_client",
    });
    const agent = await adminClient({
      grant_types: ["authorization_code", TOKEN_EXCHANGE],
      token_exchange_audiences: [DOWNSTREAM],
    });
    const { tokens, who } = await rp.codeFlow(agent.client, agent.auth, "openid email");
    expect(await refusal(agent, { subject_token: tokens.access_token, impersonate: "true" })).toMatchObject({
      error: "unauthorized_client",
      error_description: "The client may not impersonate users",
    });
    expect(
      await refusal(agent, { subject_token: tokens.access_token, scope: "email profile" }),
    ).toMatchObject({
      error: "invalid_scope",
    });
    // Another audience than the admin listed; and a token that leaked from another client.
    expect(
      await refusal(agent, { subject_token: tokens.access_token, resource: "https://other.example/api" }),
    ).toMatchObject({ error: "invalid_target" });
    expect(await refusal(agent, { subject_token: plainTokens.tokens.access_token })).toMatchObject({
      error: "invalid_request",
      error_description: "subject_token was issued to another client",
    });
    const refused = await auditEntries("token_exchange_refused");
    for (const reason of ["impersonation_not_allowed", "scope_widened", "audience_not_allowed"])
      expect(refused).toContainEqual(
        expect.objectContaining({
          actor_id: who.user.id,
          traits: expect.objectContaining({ client_id: agent.client.client_id, reason }),
        }),
      );
    expect(refused).toContainEqual(
      expect.objectContaining({
        actor_id: plainTokens.who.user.id,
        traits: expect.objectContaining({
          reason: "subject_of_another_client",
          subject_client_id: plain.client.client_id,
        }),
      }),
    );
  });

  it("refuses an ID token, an expired token and a token whose session ended as subject", async () => {
    const agent = await adminClient({
      grant_types: ["authorization_code", "refresh_token", TOKEN_EXCHANGE],
      token_exchange_audiences: [DOWNSTREAM],
    });
    const { tokens } = await rp.codeFlow(agent.client, agent.auth, "openid email");
    const idToken = tokens.id_token as string;
    expect(await refusal(agent, { subject_token: idToken })).toMatchObject({
      error: "invalid_request",
      error_description: "An ID token is not an access token and cannot be exchanged",
    });
    expect(
      await refusal(agent, {
        subject_token: idToken,
        subject_token_type: "urn:ietf:params:oauth:token-type:id_token",
      }),
    ).toMatchObject({ error: "invalid_request" });
    expect(await auditEntries("token_exchange_refused")).toContainEqual(
      expect.objectContaining({ traits: expect.objectContaining({ reason: "id_token_as_subject" }) }),
    );
    // The same claims, expired (signed by the verify key the API keys use): refused.
    const past = Math.floor(Date.now() / 1000) - 60;
    const expired = await new SignJWT({ ...decodeJwt(tokens.access_token), exp: past, iat: past - 3600 })
      .setProtectedHeader({ alg: "HS256", kid: "legacy-secret" })
      .sign(new TextEncoder().encode(TEST_JWT_SECRET));
    expect(await refusal(agent, { subject_token: expired })).toMatchObject({
      error: "invalid_request",
      error_description: "subject_token is invalid or expired",
    });
    // An exchanged token lives with the user's session: revoked, neither it nor its subject exchanges.
    const exchanged = await exchange(agent, { subject_token: tokens.access_token });
    await oauth.processRevocationResponse(
      await oauth.revocationRequest(
        rp.as,
        agent.client,
        agent.auth,
        tokens.refresh_token as string,
        insecure,
      ),
    );
    for (const subject of [tokens.access_token, exchanged.access_token])
      expect(await refusal(agent, { subject_token: subject })).toMatchObject({
        error: "invalid_request",
        error_description: "The session of subject_token has ended",
      });
    const info = await fetch(`${server.url}/oauth/userinfo`, {
      headers: { authorization: `Bearer ${exchanged.access_token}`, "x-jwt-aud": DOWNSTREAM },
    });
    expect(info.status).toBe(403);
  });

  it("impersonates for a client the admin allowed: no act, audited as impersonation", async () => {
    const wizard = await adminClient({
      grant_types: ["authorization_code", TOKEN_EXCHANGE],
      token_exchange_audiences: [DOWNSTREAM],
      token_exchange_impersonation: true,
    });
    expect(wizard.body).toMatchObject({ token_exchange_impersonation: true });
    const { tokens, who } = await rp.codeFlow(wizard.client, wizard.auth, "email");
    const exchanged = await exchange(wizard, { subject_token: tokens.access_token, impersonate: "true" });
    const claims = decodeJwt(exchanged.access_token);
    expect(claims).toMatchObject({ sub: who.user.id, client_id: wizard.client.client_id, aud: DOWNSTREAM });
    expect(claims.act).toBeUndefined();
    expect(await auditEntries("token_exchanged")).toContainEqual(
      expect.objectContaining({
        actor_id: who.user.id,
        traits: expect.objectContaining({ client_id: wizard.client.client_id, mode: "impersonation" }),
      }),
    );
  });
});
