import { describe, expect, it } from "vitest";
import { ok } from "../kernel/index.js";
import { hexToBase64Url } from "../pkce/index.js";
import { aUser, fakeDeps, fakeHooks } from "../testing/index.js";
import { approved, pending, REDIRECT, VERIFIER } from "../testing/oauth-server/code-flow-fixtures.js";
import { startAuthorization } from "./authorize.js";
import { authenticateClient } from "./client-auth.js";
import { registerClient } from "./clients.js";
import { authorizationDetails, decideConsent } from "./consent.js";
import { exchangeAuthorizationCode, refreshForClient } from "./token-grants.js";
import { revokeConsent } from "./user-consents.js";

describe("startAuthorization", () => {
  it("answers problems with the client or its redirect URI to the browser, the rest to the client", async () => {
    const { deps, client } = await pending();
    expect(
      await startAuthorization(deps, { clientId: client.id, redirectUri: "https://evil.example/cb" }),
    ).toMatchObject({
      ok: false,
      error: { code: "validation_failed", message: "invalid redirect_uri" },
    });
    expect(await startAuthorization(deps, { clientId: "x", redirectUri: REDIRECT })).toMatchObject({
      ok: false,
      error: { code: "oauth_client_not_found" },
    });
    const noPkce = await startAuthorization(deps, {
      clientId: client.id,
      redirectUri: REDIRECT,
      state: "s1",
    });
    expect(noPkce.ok && new URL(noPkce.value.location).searchParams.get("error")).toBe("invalid_request");
    expect(noPkce.ok && noPkce.value.location.startsWith(`${REDIRECT}&`)).toBe(true);
    // Only the registered string itself: no near miss is "close enough" to be redirected to.
    for (const nearMiss of [
      "https://app.example/cb/?keep=1",
      "https://APP.example/cb?keep=1",
      "HTTPS://app.example/cb?keep=1",
      "https://app.example/CB?keep=1",
      "https://app.example/cb?keep=1#x",
      "https://app.example/cb?keep=1&next=https://evil.example",
      "https://app.example/cb?keep=%31",
      "https://app.example/cb",
      "https://app.example:443/cb?keep=1",
    ]) {
      expect(
        await startAuthorization(deps, { clientId: client.id, redirectUri: nearMiss }),
        nearMiss,
      ).toMatchObject({
        ok: false,
        error: { code: "validation_failed", message: "invalid redirect_uri" },
      });
    }
    const badScope = await startAuthorization(deps, {
      clientId: client.id,
      redirectUri: REDIRECT,
      scope: "admin",
      codeChallenge: VERIFIER,
      codeChallengeMethod: "S256",
    });
    expect(badScope.ok && new URL(badScope.value.location).searchParams.get("error_description")).toBe(
      "unsupported scope: admin",
    );
  });
});

describe("the code flow", () => {
  it("approves into a redirect with the code and state, and exchanges the code once for the client's session", async () => {
    const { deps, client, user, code, redirectUrl } = await approved();
    expect(new URL(redirectUrl).searchParams.get("state")).toBe("st");
    expect(new URL(redirectUrl).searchParams.get("keep")).toBe("1");
    // RFC 9207: the issuer of the metadata, so the client can tell which server answered.
    expect(new URL(redirectUrl).searchParams.get("iss")).toBe("http://localhost:9999");
    const tokens = await exchangeAuthorizationCode(deps, {
      dpop: null,
      client,
      code,
      codeVerifier: VERIFIER,
      redirectUri: REDIRECT,
    });
    expect(tokens).toMatchObject({
      ok: true,
      value: { scope: "openid email profile", idToken: expect.any(String) },
    });
    const [session] = [...deps.store.tables.sessions.values()];
    expect(session).toMatchObject({
      userId: user.id,
      oauthClientId: client.id,
      scopes: "openid email profile",
    });
    expect(deps.idTokens.signed[0]).toMatchObject({
      sub: user.id,
      aud: [client.id],
      nonce: "nn",
      email: user.email,
      email_verified: true,
      name: "Ada",
    });
    expect(
      await exchangeAuthorizationCode(deps, { dpop: null, client, code, codeVerifier: VERIFIER }),
    ).toMatchObject({
      ok: false,
      error: { code: "invalid_grant" },
    });
  });

  it("answers a refresh token without offline_access unless OAUTH_SERVER_REFRESH_TOKEN_NEEDS_OFFLINE_ACCESS is on", async () => {
    const plain = await approved("email");
    const always = await exchangeAuthorizationCode(plain.deps, {
      ...plain,
      codeVerifier: VERIFIER,
      dpop: null,
    });
    expect(always.ok && typeof always.value.refreshToken).toBe("string");
    for (const [scope, issued] of [
      ["email", false],
      ["email offline_access", true],
    ] as const) {
      const { deps, client, code } = await approved(scope);
      const strict = { ...deps.settings.oauthServer, refreshTokenNeedsOfflineAccess: true };
      Object.assign(deps, { settings: { ...deps.settings, oauthServer: strict } });
      const exchanged = await exchangeAuthorizationCode(deps, {
        client,
        code,
        codeVerifier: VERIFIER,
        dpop: null,
      });
      if (!exchanged.ok) throw exchanged.error;
      expect([scope, exchanged.value.refreshToken !== undefined]).toEqual([scope, issued]);
      // The session exists either way: userinfo and revocation read it.
      expect(deps.store.tables.sessions.size).toBe(1);
    }
  });

  it("lets exactly one of concurrent exchanges of a code win, and the others, replays, end its session", async () => {
    const { deps, client, code } = await approved("email");
    const results = await Promise.all(
      Array.from({ length: 8 }, () =>
        exchangeAuthorizationCode(deps, { dpop: null, client, code, codeVerifier: VERIFIER }),
      ),
    );
    const won = results.filter((r) => r.ok);
    expect(won).toHaveLength(1);
    expect(deps.store.tables.sessions.size).toBe(0);
    const refreshToken = won[0]?.ok ? won[0].value.refreshToken : "";
    expect(await refreshForClient(deps, { dpop: null, client, refreshToken })).toMatchObject({
      ok: false,
      error: { code: "invalid_grant" },
    });
  });

  it("ends the session of a code's exchange when the code is used again (RFC 6749 §4.1.2)", async () => {
    const { deps, client, code } = await approved("email");
    const first = await exchangeAuthorizationCode(deps, { dpop: null, client, code, codeVerifier: VERIFIER });
    if (!first.ok) throw first.error;
    const refreshed = await refreshForClient(deps, {
      dpop: null,
      client,
      refreshToken: first.value.refreshToken,
    });
    if (!refreshed.ok) throw refreshed.error;
    expect(
      await exchangeAuthorizationCode(deps, { dpop: null, client, code, codeVerifier: VERIFIER }),
    ).toMatchObject({
      ok: false,
      error: { code: "invalid_grant" },
    });
    expect(deps.store.tables.sessions.size).toBe(0);
    expect(
      await refreshForClient(deps, { dpop: null, client, refreshToken: refreshed.value.refreshToken }),
    ).toMatchObject({
      ok: false,
      error: { code: "invalid_grant" },
    });
    expect(deps.store.tables.audit.at(-1)).toMatchObject({
      action: "token_revoked",
      traits: { client_id: client.id, action: "authorization_code_reused" },
    });
  });

  it("keeps the code after a wrong verifier, redirect URI or resource, and refuses it once expired", async () => {
    const { deps, client, code } = await approved("email");
    for (const wrong of [
      { codeVerifier: "w".repeat(43) },
      { codeVerifier: VERIFIER, redirectUri: "https://app.example/other" },
      { codeVerifier: VERIFIER, resource: "https://api.example" },
    ]) {
      expect(await exchangeAuthorizationCode(deps, { dpop: null, client, code, ...wrong })).toMatchObject({
        ok: false,
        error: { code: "invalid_grant" },
      });
    }
    deps.clock.advance(600_000);
    expect(
      await exchangeAuthorizationCode(deps, { dpop: null, client, code, codeVerifier: VERIFIER }),
    ).toMatchObject({
      ok: false,
      error: { code: "invalid_grant", message: "Authorization code has expired" },
    });
  });

  it("asks the user again for a resource they have not approved for the client, and only then", async () => {
    const { deps, client, user } = await approved("openid");
    const FILES = "https://files.example/mcp";
    /** What GET /oauth/authorizations/{id} answers for a new request of the client. */
    const opened = async (resource?: string) => {
      const started = await startAuthorization(deps, {
        clientId: client.id,
        redirectUri: REDIRECT,
        scope: "openid",
        resource,
        codeChallenge: hexToBase64Url(deps.tokens.hash(VERIFIER)),
        codeChallengeMethod: "S256",
      });
      if (!started.ok) throw started.error;
      const authorizationId = new URL(started.value.location).searchParams.get("authorization_id") as string;
      const details = await authorizationDetails(deps, { authorizationId, userId: user.id });
      if (!details.ok) throw details.error;
      return { authorizationId, kind: details.value.kind };
    };
    // The consent to `openid` alone says nothing of the files server: the user is asked.
    const asked = await opened(FILES);
    expect(asked.kind).toBe("details");
    await decideConsent(deps, { authorizationId: asked.authorizationId, userId: user.id, action: "approve" });
    expect(await deps.store.oauthConsents.findActive(user.id, client.id)).toMatchObject({
      resources: [FILES],
    });
    expect((await opened(FILES)).kind).toBe("redirect");
    expect((await opened()).kind).toBe("redirect");
    expect((await opened("https://mail.example/mcp")).kind).toBe("details");
  });

  it("refuses a code approved before the user revoked the client's grant", async () => {
    const { deps, client, user, code } = await approved("email");
    const revoked = await revokeConsent(deps, { userId: user.id, actorUsername: "", clientId: client.id });
    expect(revoked).toMatchObject({ ok: true });
    expect(
      await exchangeAuthorizationCode(deps, { dpop: null, client, code, codeVerifier: VERIFIER }),
    ).toMatchObject({
      ok: false,
      error: { code: "invalid_grant" },
    });
    expect(deps.store.tables.sessions.size).toBe(0);
  });

  it("runs the custom access token hook on the client's tokens, which it sees with client_id and scope", async () => {
    const setup = await approved("openid email");
    const hooks = fakeHooks({
      custom_access_token: (input) => {
        const { claims } = input as { claims: Record<string, unknown> };
        return ok({ claims: { ...claims, tenant: "acme" } });
      },
    });
    const deps = { ...setup.deps, hooks: hooks.dispatcher };
    const { client, code } = setup;
    const exchanged = await exchangeAuthorizationCode(deps, {
      dpop: null,
      client,
      code,
      codeVerifier: VERIFIER,
    });
    if (!exchanged.ok) throw exchanged.error;
    expect(await deps.signer.verify(exchanged.value.accessToken)).toMatchObject({
      client_id: client.id,
      scope: "openid email",
      tenant: "acme",
    });
    // A client asking for more on refresh gets the session's scopes, through the hook again.
    const refreshed = await refreshForClient(deps, {
      dpop: null,
      client,
      refreshToken: exchanged.value.refreshToken,
    });
    if (!refreshed.ok) throw refreshed.error;
    expect(refreshed.value.scope).toBe("openid email");
    expect(await deps.signer.verify(refreshed.value.accessToken)).toMatchObject({
      client_id: client.id,
      scope: "openid email",
      tenant: "acme",
    });
    expect(
      hooks.calls.map((c) => (c.input as { claims: { client_id?: string; scope?: string } }).claims),
    ).toEqual([
      expect.objectContaining({ client_id: client.id, scope: "openid email" }),
      expect.objectContaining({ client_id: client.id, scope: "openid email" }),
    ]);
  });

  it("binds a request to its first user and refuses everyone else", async () => {
    const { deps, user, authorizationId } = await pending();
    const other = aUser();
    deps.store.tables.users.set(other.id, other);
    expect(await decideConsent(deps, { authorizationId, userId: user.id, action: "approve" })).toMatchObject({
      ok: false,
      error: { code: "oauth_authorization_not_found" },
    });
    await authorizationDetails(deps, { authorizationId, userId: user.id });
    expect(await authorizationDetails(deps, { authorizationId, userId: other.id })).toMatchObject({
      ok: false,
      error: { code: "oauth_authorization_not_found" },
    });
    const denied = await decideConsent(deps, { authorizationId, userId: user.id, action: "deny" });
    expect(denied.ok && new URL(denied.value.redirectUrl).searchParams.get("error")).toBe("access_denied");
    expect(denied.ok && new URL(denied.value.redirectUrl).searchParams.get("iss")).toBe(
      "http://localhost:9999",
    );
    expect(await decideConsent(deps, { authorizationId, userId: user.id, action: "approve" })).toMatchObject({
      ok: false,
      error: { code: "validation_failed" },
    });
  });

  it("refreshes the client's session for that client only", async () => {
    const { deps, client, code } = await approved("email");
    const exchanged = await exchangeAuthorizationCode(deps, {
      dpop: null,
      client,
      code,
      codeVerifier: VERIFIER,
    });
    if (!exchanged.ok) throw exchanged.error;
    const another = await registerClient(deps, {
      registrationType: "dynamic",
      redirectUris: [REDIRECT],
      authMethod: "none",
    });
    if (!another.ok) throw another.error;
    expect(
      await refreshForClient(deps, {
        dpop: null,
        client: another.value.client,
        refreshToken: exchanged.value.refreshToken,
      }),
    ).toMatchObject({
      ok: false,
      error: { code: "invalid_client" },
    });
    expect(
      await refreshForClient(deps, { dpop: null, client, refreshToken: exchanged.value.refreshToken }),
    ).toMatchObject({
      ok: true,
      value: { scope: "email" },
    });
  });
});

describe("authenticateClient", () => {
  it("accepts the registered method only, and no secret from a public client", async () => {
    const deps = fakeDeps();
    const made = await registerClient(deps, {
      registrationType: "manual",
      redirectUris: [REDIRECT],
      authMethod: "client_secret_post",
    });
    const open = await registerClient(deps, {
      registrationType: "manual",
      redirectUris: [REDIRECT],
      authMethod: "none",
    });
    if (!made.ok || !open.ok) throw new Error("refused");
    const id = made.value.client.id;
    const secret = made.value.secret as string;
    expect(
      await authenticateClient(deps, { basic: false, clientId: id, clientSecret: secret }),
    ).toMatchObject({ ok: true });
    expect(await authenticateClient(deps, { basic: true, clientId: id, clientSecret: secret })).toMatchObject(
      { ok: false },
    );
    expect(
      await authenticateClient(deps, { basic: false, clientId: id, clientSecret: `${secret}x` }),
    ).toMatchObject({ ok: false });
    expect(await authenticateClient(deps, { basic: false, clientId: id })).toMatchObject({ ok: false });
    const openId = open.value.client.id;
    expect(await authenticateClient(deps, { basic: false, clientId: openId })).toMatchObject({ ok: true });
    expect(
      await authenticateClient(deps, { basic: false, clientId: openId, clientSecret: "s" }),
    ).toMatchObject({ ok: false });
    expect(await authenticateClient(deps, { basic: false })).toMatchObject({
      ok: false,
      error: { code: "invalid_credentials", message: "client_id is required" },
    });
  });
});
