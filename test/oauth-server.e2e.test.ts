import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type FreshNamespace, migratedNamespace } from "@authsvc/adapters/testing";
import { roleKey } from "@authsvc/http/testing";
import { GoTrueAdminApi } from "@supabase/auth-js";
import { createRemoteJWKSet, decodeJwt, jwtVerify } from "jose";
import * as oauth from "oauth4webapi";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signedInUser, startOAuthServer } from "./support/oauth-server.js";
import type { ServerProcess } from "./support/server-process.js";

/**
 * authsvc as an OAuth 2.1 / OpenID Connect provider, driven by an independent relying party
 * (oauth4webapi) against the built server, the user's consent given through auth-js as a consent page
 * gives it.
 */
let ns: FreshNamespace;
let server: ServerProcess & { issuer: string };
let as: oauth.AuthorizationServer;
let admin: GoTrueAdminApi;
const cwd = mkdtempSync(join(tmpdir(), "authsvc-oauth-"));
const REDIRECT = "http://127.0.0.1:8123/callback";
const insecure = { [oauth.allowInsecureRequests]: true } as const;

beforeAll(async () => {
  ns = await migratedNamespace();
  server = await startOAuthServer(ns, cwd);
  const issuer = new URL(server.issuer);
  as = await oauth.processDiscoveryResponse(
    issuer,
    await oauth.discoveryRequest(issuer, { algorithm: "oidc", ...insecure }),
  );
  admin = new GoTrueAdminApi({
    url: server.url,
    headers: { Authorization: `Bearer ${await roleKey("service_role")}` },
  });
}, 60_000);

afterAll(async () => {
  await server?.stop();
  await ns?.drop();
  rmSync(cwd, { recursive: true, force: true });
});

/** A client registered dynamically (RFC 7591), as an MCP client registers. */
async function registerPublicClient(name = "Public app"): Promise<oauth.Client> {
  const response = await fetch(as.registration_endpoint as string, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      client_name: name,
      redirect_uris: [REDIRECT],
      token_endpoint_auth_method: "none",
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
    }),
  });
  expect(response.status).toBe(201);
  const body = (await response.json()) as Record<string, unknown>;
  expect(body).toMatchObject({ client_type: "public", token_endpoint_auth_method: "none" });
  expect(body.client_secret).toBeUndefined();
  return { client_id: body.client_id as string, token_endpoint_auth_method: "none" };
}

/** A confidential client created by the admin API (auth-js `admin.oauth.createClient`). */
async function createConfidentialClient(method: "client_secret_basic" | "client_secret_post") {
  const { data, error } = await admin.oauth.createClient({
    client_name: `Confidential ${method}`,
    redirect_uris: [REDIRECT],
    token_endpoint_auth_method: method,
  });
  expect(error).toBeNull();
  const secret = data?.client_secret as string;
  expect(secret.length).toBeGreaterThanOrEqual(43);
  const client: oauth.Client = { client_id: data?.client_id as string, token_endpoint_auth_method: method };
  const auth =
    method === "client_secret_basic" ? oauth.ClientSecretBasic(secret) : oauth.ClientSecretPost(secret);
  return { client, auth, secret };
}

interface Started {
  readonly authorizationId: string;
  readonly verifier: string;
  readonly state: string;
  readonly nonce: string;
}

/** The browser's first step: `/oauth/authorize` with PKCE, followed to the consent page's address. */
async function authorize(client: oauth.Client, scope = "openid email profile"): Promise<Started> {
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const nonce = oauth.generateRandomNonce();
  const url = new URL(as.authorization_endpoint as string);
  url.search = new URLSearchParams({
    client_id: client.client_id,
    redirect_uri: REDIRECT,
    response_type: "code",
    scope,
    state,
    nonce,
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: "S256",
  }).toString();
  const response = await fetch(url, { redirect: "manual" });
  expect(response.status).toBe(302);
  const consent = new URL(response.headers.get("location") as string);
  expect(`${consent.origin}${consent.pathname}`).toBe("http://localhost:3000/consent");
  return { authorizationId: consent.searchParams.get("authorization_id") as string, verifier, state, nonce };
}

/** A user approves on the consent page; answers where the browser lands (the client's redirect URI). */
async function approve(started: Started, person?: Awaited<ReturnType<typeof signedInUser>>) {
  const who = person ?? (await signedInUser(server.url, { name: "Ada Lovelace" }));
  const details = await who.client.oauth.getAuthorizationDetails(started.authorizationId);
  expect(details.error).toBeNull();
  const approved = await who.client.oauth.approveAuthorization(started.authorizationId, {
    skipBrowserRedirect: true,
  });
  expect(approved.error).toBeNull();
  return { landing: new URL((approved.data as { redirect_url: string }).redirect_url), who, details };
}

/** The whole code flow up to the token response. */
async function codeFlow(client: oauth.Client, auth: oauth.ClientAuth, scope = "openid email profile") {
  const started = await authorize(client, scope);
  const { landing, who } = await approve(started);
  const params = oauth.validateAuthResponse(as, client, landing, started.state);
  const response = await oauth.authorizationCodeGrantRequest(
    as,
    client,
    auth,
    params,
    REDIRECT,
    started.verifier,
    insecure,
  );
  const tokens = await oauth.processAuthorizationCodeResponse(as, client, response, {
    expectedNonce: scope.includes("openid") ? started.nonce : oauth.expectNoNonce,
    requireIdToken: scope.includes("openid"),
  });
  return { tokens, who, started };
}

/** A raw token request, for the attacks oauth4webapi would not send. */
const tokenRequest = (fields: Record<string, string>, headers: Record<string, string> = {}) =>
  fetch(as.token_endpoint as string, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
    body: new URLSearchParams(fields),
  });

/** An approved code that was not exchanged yet. */
async function approvedCode(client: oauth.Client) {
  const started = await authorize(client, "email");
  const { landing } = await approve(started);
  return { code: landing.searchParams.get("code") as string, started };
}

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

  it("refuses a wrong verifier without spending the code, then a replayed code", async () => {
    const client = await registerPublicClient();
    const { code, started } = await approvedCode(client);
    const exchange = (verifier: string) =>
      tokenRequest({
        grant_type: "authorization_code",
        code,
        code_verifier: verifier,
        client_id: client.client_id,
        redirect_uri: REDIRECT,
      });
    const wrong = await exchange(oauth.generateRandomCodeVerifier());
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toMatchObject({ error: "invalid_grant" });
    const right = await exchange(started.verifier);
    expect(right.status).toBe(200);
    const replay = await exchange(started.verifier);
    expect(replay.status).toBe(400);
    expect(await replay.json()).toMatchObject({ error: "invalid_grant" });
  });

  it("lets exactly one of 8 concurrent redemptions of a code win", async () => {
    const client = await registerPublicClient();
    const { code, started } = await approvedCode(client);
    const answers = await Promise.all(
      Array.from({ length: 8 }, () =>
        tokenRequest({
          grant_type: "authorization_code",
          code,
          code_verifier: started.verifier,
          client_id: client.client_id,
        }),
      ),
    );
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([200, 400, 400, 400, 400, 400, 400, 400]);
    const sessions = await ns.sql`
      select count(*)::int as n from ${ns.sql(ns.namespace)}.sessions where oauth_client_id = ${client.client_id}`;
    expect(sessions[0]?.n).toBe(1);
  });

  it("answers an unregistered redirect URI in JSON and never redirects to it", async () => {
    const client = await registerPublicClient();
    const url = new URL(as.authorization_endpoint as string);
    url.search = new URLSearchParams({
      client_id: client.client_id,
      redirect_uri: "https://attacker.example/cb",
      response_type: "code",
      code_challenge: await oauth.calculatePKCECodeChallenge(oauth.generateRandomCodeVerifier()),
      code_challenge_method: "S256",
    }).toString();
    const response = await fetch(url, { redirect: "manual" });
    expect(response.status).toBe(400);
    expect(response.headers.get("location")).toBeNull();
    expect(await response.json()).toMatchObject({
      error_code: "validation_failed",
      msg: "invalid redirect_uri",
    });
    // Past the redirect URI, errors go back to the client with the state: here, PKCE missing.
    url.searchParams.set("redirect_uri", REDIRECT);
    url.searchParams.delete("code_challenge");
    url.searchParams.set("state", "st-1");
    const redirected = await fetch(url, { redirect: "manual" });
    expect(redirected.status).toBe(302);
    const back = new URL(redirected.headers.get("location") as string);
    expect(back.searchParams.get("error")).toBe("invalid_request");
    expect(back.searchParams.get("state")).toBe("st-1");
  });

  it("refuses an expired authorization, and its expired code", async () => {
    const client = await registerPublicClient();
    const started = await authorize(client, "email");
    const who = await signedInUser(server.url);
    const table = ns.sql`${ns.sql(ns.namespace)}.oauth_authorizations`;
    await ns.sql`update ${table} set created_at = now() - interval '20 minutes', expires_at = now() - interval '1 second' where authorization_id = ${started.authorizationId}`;
    const details = await who.client.oauth.getAuthorizationDetails(started.authorizationId);
    expect(details.error?.status).toBe(404);
    const [row] =
      await ns.sql`select status from ${table} where authorization_id = ${started.authorizationId}`;
    expect(row?.status).toBe("expired");
    // A code whose request expired after approval.
    const { code, started: second } = await approvedCode(client);
    await ns.sql`update ${table} set created_at = now() - interval '20 minutes', expires_at = now() - interval '1 second' where authorization_id = ${second.authorizationId}`;
    const late = await tokenRequest({
      grant_type: "authorization_code",
      code,
      code_verifier: second.verifier,
      client_id: client.client_id,
    });
    expect(late.status).toBe(400);
    expect(await late.json()).toMatchObject({ error: "invalid_grant" });
  });

  it("refuses another client's code, and leaves it to its own client", async () => {
    const mine = await registerPublicClient("Mine");
    const theirs = await registerPublicClient("Theirs");
    const { code, started } = await approvedCode(mine);
    const stolen = await tokenRequest({
      grant_type: "authorization_code",
      code,
      code_verifier: started.verifier,
      client_id: theirs.client_id,
    });
    expect(stolen.status).toBe(400);
    expect(await stolen.json()).toMatchObject({ error: "invalid_grant" });
    const own = await tokenRequest({
      grant_type: "authorization_code",
      code,
      code_verifier: started.verifier,
      client_id: mine.client_id,
    });
    expect(own.status).toBe(200);
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
    // Someone else cannot take over a request bound to the user.
    expect((await who.client.oauth.getAuthorizationDetails(second.authorizationId)).data).toMatchObject({
      redirect_url: expect.stringContaining("code="),
    });
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
  });
});
