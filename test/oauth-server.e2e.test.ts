import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type FreshNamespace, migratedNamespace } from "@authsvc/adapters/testing";
import { createRemoteJWKSet, decodeJwt, jwtVerify } from "jose";
import * as oauth from "oauth4webapi";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insecure, relyingParty } from "./support/oauth-relying-party.js";
import { signedInUser, startOAuthServer } from "./support/oauth-server.js";
import type { ServerProcess } from "./support/server-process.js";

/**
 * authsvc as an OAuth 2.1 / OpenID Connect provider, driven by an independent relying party
 * (oauth4webapi) against the built server, the user's consent given through auth-js as a consent page
 * gives it: discovery, registration, the code flow and its tokens, client authentication, grants.
 */
type RelyingParty = Awaited<ReturnType<typeof relyingParty>>;
let ns: FreshNamespace;
let server: ServerProcess & { issuer: string };
let as: RelyingParty["as"];
let registerPublicClient: RelyingParty["registerPublicClient"];
let createConfidentialClient: RelyingParty["createConfidentialClient"];
let authorize: RelyingParty["authorize"];
let approve: RelyingParty["approve"];
let codeFlow: RelyingParty["codeFlow"];
let tokenRequest: RelyingParty["tokenRequest"];
let approvedCode: RelyingParty["approvedCode"];
let admin: RelyingParty["admin"];
const cwd = mkdtempSync(join(tmpdir(), "authsvc-oauth-"));

beforeAll(async () => {
  ns = await migratedNamespace();
  server = await startOAuthServer(ns, cwd);
  ({
    as,
    registerPublicClient,
    createConfidentialClient,
    authorize,
    approve,
    codeFlow,
    tokenRequest,
    approvedCode,
    admin,
  } = await relyingParty(server));
}, 60_000);

afterAll(async () => {
  await server?.stop();
  await ns?.drop();
  rmSync(cwd, { recursive: true, force: true });
});

describe("OAuth 2.1 server with an independent relying party (oauth4webapi)", () => {
  it("publishes its metadata under the configured issuer, in both discovery forms", async () => {
    expect(as.issuer).toBe(server.issuer);
    expect(as.token_endpoint).toBe(`${server.issuer}/oauth/token`);
    expect(as.code_challenge_methods_supported).toContain("S256");
    expect(as.revocation_endpoint).toBe(`${server.issuer}/oauth/revoke`);
    expect(as.introspection_endpoint).toBe(`${server.issuer}/oauth/introspect`);
    const rfc8414 = await oauth.processDiscoveryResponse(
      new URL(server.issuer),
      await oauth.discoveryRequest(new URL(server.issuer), { algorithm: "oauth2", ...insecure }),
    );
    expect(rfc8414.authorization_endpoint).toBe(as.authorization_endpoint);
    const inserted = await fetch(`${server.url}/.well-known/oauth-authorization-server/auth/v1`);
    expect(inserted.status).toBe(200);
  });
  it("runs the code flow with PKCE for a registered public client: ID token, userinfo, refresh, revocation", async () => {
    const client = await registerPublicClient();
    const { tokens, who, started } = await codeFlow(client, oauth.None());
    // The ID token, validated by oauth4webapi (issuer, audience, nonce, times), and its signature by the JWKS.
    const idClaims = oauth.getValidatedIdTokenClaims(tokens) as oauth.IDToken;
    expect(idClaims).toMatchObject({
      iss: server.issuer,
      sub: who.user.id,
      nonce: started.nonce,
      email: who.email,
      email_verified: true,
      name: "Ada Lovelace",
    });
    expect(typeof idClaims.auth_time).toBe("number");
    const jwks = createRemoteJWKSet(new URL(as.jwks_uri as string));
    const verified = await jwtVerify(tokens.id_token as string, jwks, {
      issuer: server.issuer,
      audience: client.client_id,
      algorithms: ["RS256"],
    });
    expect(verified.protectedHeader.alg).toBe("RS256");
    // An ID token says who signed in; it is no bearer token, even for the audience it names.
    expect(verified.payload.token_use).toBe("id");
    const asIdToken = { authorization: `Bearer ${tokens.id_token}`, "x-jwt-aud": client.client_id };
    const takeover = await fetch(`${server.url}/user`, {
      method: "PUT",
      headers: { ...asIdToken, "content-type": "application/json" },
      body: JSON.stringify({ password: "taken-over-password" }),
    });
    expect(takeover.status).toBe(403);
    expect(await takeover.json()).toMatchObject({ error_code: "bad_jwt" });
    expect((await fetch(`${server.url}/user`, { headers: asIdToken })).status).toBe(403);
    // The access token names the client and the scopes granted.
    expect(decodeJwt(tokens.access_token)).toMatchObject({
      sub: who.user.id,
      client_id: client.client_id,
      scope: "openid email profile",
      role: "authenticated",
    });
    const info = await oauth.processUserInfoResponse(
      as,
      client,
      who.user.id,
      await oauth.userInfoRequest(as, client, tokens.access_token, insecure),
    );
    expect(info).toMatchObject({
      sub: who.user.id,
      email: who.email,
      email_verified: true,
      name: "Ada Lovelace",
    });
    // Refresh: a new pair, still the client's.
    const refreshed = await oauth.processRefreshTokenResponse(
      as,
      client,
      await oauth.refreshTokenGrantRequest(
        as,
        client,
        oauth.None(),
        tokens.refresh_token as string,
        insecure,
      ),
    );
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
    expect(decodeJwt(refreshed.access_token)).toMatchObject({
      client_id: client.client_id,
      scope: "openid email profile",
    });
    expect(refreshed.id_token).toBeUndefined();
    // The client's token cannot answer consent requests for the user, nor touch the user's grants.
    const escalation = await authorize(client, "openid email profile phone");
    const asClient = { authorization: `Bearer ${refreshed.access_token}` };
    const bound = await fetch(`${server.url}/oauth/authorizations/${escalation.authorizationId}`, {
      headers: asClient,
    });
    expect(bound.status).toBe(403);
    expect(await bound.json()).toMatchObject({ error_code: "bad_jwt" });
    expect((await fetch(`${server.url}/user/oauth/grants`, { headers: asClient })).status).toBe(403);
    // The first-party refresh refuses the client's session, OAuth-style.
    const plain = await fetch(`${server.url}/token?grant_type=refresh_token`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ refresh_token: refreshed.refresh_token }),
    });
    expect(plain.status).toBe(400);
    expect(await plain.json()).toEqual({
      error: "invalid_client",
      error_description: "Client authentication required for OAuth session",
    });
    // Revocation (RFC 7009) ends the session: the refresh token no longer works.
    await oauth.processRevocationResponse(
      await oauth.revocationRequest(as, client, oauth.None(), refreshed.refresh_token as string, insecure),
    );
    const afterRevoke = await tokenRequest({
      grant_type: "refresh_token",
      refresh_token: refreshed.refresh_token as string,
      client_id: client.client_id,
    });
    expect(afterRevoke.status).toBe(400);
    expect(await afterRevoke.json()).toMatchObject({ error: "invalid_grant" });
  });
  it("authenticates confidential clients by the registered method only: basic and post", async () => {
    for (const method of ["client_secret_basic", "client_secret_post"] as const) {
      const { client, auth, secret } = await createConfidentialClient(method);
      const { tokens } = await codeFlow(client, auth, "email");
      expect(tokens.id_token).toBeUndefined();
      expect(decodeJwt(tokens.access_token)).toMatchObject({ client_id: client.client_id, scope: "email" });
      // Introspection (RFC 7662) by the client that holds the token.
      const active = await oauth.processIntrospectionResponse(
        as,
        client,
        await oauth.introspectionRequest(as, client, auth, tokens.access_token, insecure),
      );
      expect(active).toMatchObject({ active: true, client_id: client.client_id, scope: "email" });
      // The other method, a wrong secret, no secret: refused.
      const { code } = await approvedCode(client);
      const basic = `Basic ${Buffer.from(`${client.client_id}:${secret}`).toString("base64")}`;
      const wrongMethod =
        method === "client_secret_basic"
          ? await tokenRequest({
              grant_type: "authorization_code",
              code,
              client_id: client.client_id,
              client_secret: secret,
            })
          : await tokenRequest({ grant_type: "authorization_code", code }, { authorization: basic });
      expect(wrongMethod.status).toBe(400);
      expect(await wrongMethod.json()).toMatchObject({ error_code: "invalid_credentials" });
      const wrongSecret = await tokenRequest(
        { grant_type: "authorization_code", code, client_id: client.client_id, client_secret: `${secret}x` },
        method === "client_secret_basic"
          ? { authorization: `Basic ${Buffer.from(`${client.client_id}:${secret}x`).toString("base64")}` }
          : {},
      );
      expect(wrongSecret.status).toBe(400);
      expect(await wrongSecret.json()).toMatchObject({ error_code: "invalid_credentials" });
    }
  });
  it("names itself in every authorization response (RFC 9207), so a response from another issuer is refused", async () => {
    expect(as.authorization_response_iss_parameter_supported).toBe(true);
    const client = await registerPublicClient();
    const started = await authorize(client, "email");
    const { landing } = await approve(started);
    expect(landing.searchParams.get("iss")).toBe(as.issuer);
    expect(() => oauth.validateAuthResponse(as, client, landing, started.state)).not.toThrow();
    const forged = new URL(landing);
    forged.searchParams.set("iss", "https://other-issuer.example");
    expect(() => oauth.validateAuthResponse(as, client, forged, started.state)).toThrow();
    const stripped = new URL(landing);
    stripped.searchParams.delete("iss");
    expect(() => oauth.validateAuthResponse(as, client, stripped, started.state)).toThrow();
  });
  it("sends a denial back as access_denied with the state", async () => {
    const client = await registerPublicClient();
    const started = await authorize(client, "email");
    const who = await signedInUser(server.url);
    expect((await who.client.oauth.getAuthorizationDetails(started.authorizationId)).error).toBeNull();
    const denied = await who.client.oauth.denyAuthorization(started.authorizationId, {
      skipBrowserRedirect: true,
    });
    expect(denied.error).toBeNull();
    const landing = new URL((denied.data as { redirect_url: string }).redirect_url);
    expect(() => oauth.validateAuthResponse(as, client, landing, started.state)).toThrow();
    expect(landing.searchParams.get("error")).toBe("access_denied");
    expect(landing.searchParams.get("state")).toBe(started.state);
    expect(landing.searchParams.get("iss")).toBe(as.issuer);
    expect(landing.searchParams.get("code")).toBeNull();
  });
  it("binds a request to the first user who opens it, approves at once what was consented, and revokes a grant", async () => {
    const client = await registerPublicClient("Remembered");
    const first = await authorize(client, "email");
    const { who, landing } = await approve(first);
    const exchanged = await tokenRequest({
      grant_type: "authorization_code",
      code: landing.searchParams.get("code") as string,
      code_verifier: first.verifier,
      client_id: client.client_id,
    });
    const { refresh_token: refreshToken } = (await exchanged.json()) as { refresh_token: string };
    const other = await signedInUser(server.url);
    const second = await authorize(client, "email");
    // Consented before: approved at once. Its code is left unexchanged until the grant is revoked.
    const auto = await who.client.oauth.getAuthorizationDetails(second.authorizationId);
    expect(auto.data).toMatchObject({ redirect_url: expect.stringContaining("code=") });
    const inFlight = new URL((auto.data as { redirect_url: string }).redirect_url).searchParams.get("code");
    // Someone else cannot take over a request bound to the user.
    const third = await authorize(client, "email");
    expect((await other.client.oauth.getAuthorizationDetails(third.authorizationId)).data).toMatchObject({
      client: { id: client.client_id, name: "Remembered" },
      scope: "email",
    });
    expect((await who.client.oauth.getAuthorizationDetails(third.authorizationId)).error?.status).toBe(404);
    const grants = await who.client.oauth.listGrants();
    expect(grants.data).toEqual([
      expect.objectContaining({
        client: expect.objectContaining({ id: client.client_id }),
        scopes: ["email"],
      }),
    ]);
    expect((await who.client.oauth.revokeGrant({ clientId: client.client_id })).error).toBeNull();
    expect((await who.client.oauth.listGrants()).data).toEqual([]);
    const sessions = await ns.sql`
      select count(*)::int as n from ${ns.sql(ns.namespace)}.sessions
      where oauth_client_id = ${client.client_id} and user_id = ${who.user.id}`;
    expect(sessions[0]?.n).toBe(0);
    const refresh = await tokenRequest({
      grant_type: "refresh_token",
      refresh_token: refreshToken,
      client_id: client.client_id,
    });
    expect(refresh.status).toBe(400);
    expect(await refresh.json()).toMatchObject({ error: "invalid_grant" });
    // Nor does a code the user approved before revoking: it would start a new session of the client.
    const late = await tokenRequest({
      grant_type: "authorization_code",
      code: inFlight as string,
      code_verifier: second.verifier,
      client_id: client.client_id,
    });
    expect(late.status).toBe(400);
    expect(await late.json()).toMatchObject({ error: "invalid_grant" });
  });

  it("keeps revocation and introspection to the client that holds the token", async () => {
    const holder = await createConfidentialClient("client_secret_post");
    const stranger = await createConfidentialClient("client_secret_basic");
    const publicClient = await registerPublicClient();
    const { tokens } = await codeFlow(holder.client, holder.auth, "email");
    // Another client learns nothing, and its revocation changes nothing.
    const seen = await oauth.processIntrospectionResponse(
      as,
      stranger.client,
      await oauth.introspectionRequest(as, stranger.client, stranger.auth, tokens.access_token, insecure),
    );
    expect(seen).toEqual({ active: false });
    await oauth.processRevocationResponse(
      await oauth.revocationRequest(as, stranger.client, stranger.auth, tokens.access_token, insecure),
    );
    // A public client may not introspect at all.
    const byPublic = await fetch(as.introspection_endpoint as string, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ token: tokens.access_token, client_id: publicClient.client_id }),
    });
    expect(byPublic.status).toBe(400);
    expect(await byPublic.json()).toMatchObject({ error: "invalid_client" });
    const userinfo = () => oauth.userInfoRequest(as, holder.client, tokens.access_token, insecure);
    expect((await userinfo()).status).toBe(200);
    // The holder revokes its access token: the session ends, so does the token.
    await oauth.processRevocationResponse(
      await oauth.revocationRequest(as, holder.client, holder.auth, tokens.access_token, insecure),
    );
    expect((await userinfo()).status).toBe(403);
    const after = await oauth.processIntrospectionResponse(
      as,
      holder.client,
      await oauth.introspectionRequest(
        as,
        holder.client,
        holder.auth,
        tokens.refresh_token as string,
        insecure,
      ),
    );
    expect(after).toEqual({ active: false });
  });

  it("ends a deleted client's sessions: its access and refresh tokens stop working", async () => {
    const { client, auth } = await createConfidentialClient("client_secret_basic");
    const { tokens } = await codeFlow(client, auth, "email");
    const userinfo = () => oauth.userInfoRequest(as, client, tokens.access_token, insecure);
    expect((await userinfo()).status).toBe(200);
    expect((await admin.oauth.deleteClient(client.client_id)).error).toBeNull();
    expect((await userinfo()).status).toBe(403);
    const refresh = await oauth.refreshTokenGrantRequest(
      as,
      client,
      auth,
      tokens.refresh_token as string,
      insecure,
    );
    expect(refresh.status).toBe(400);
    expect(await refresh.json()).toMatchObject({ error_code: "invalid_credentials" });
  });
});
