import { describe, expect, it } from "vitest";
import { ok } from "../kernel/index.js";
import { hexToBase64Url } from "../pkce/index.js";
import { aUser, fakeDeps, fakeHooks } from "../testing/index.js";
import { startAuthorization } from "./authorize.js";
import { registerClient } from "./clients.js";
import { authorizationDetails, decideConsent } from "./consent.js";
import { exchangeAuthorizationCode, refreshForClient } from "./token-grants.js";
import { introspectToken } from "./token-introspection.js";

const REDIRECT = "https://app.example/cb";
const VERIFIER = "v".repeat(64);
const KEY = { jkt: "thumbprint-of-the-client-key" };
const OTHER = { jkt: "thumbprint-of-another-key" };

/** A confidential client's code, approved by a signed-up user (S256 PKCE). */
async function approvedCode() {
  const deps = fakeDeps();
  const user = aUser({ emailConfirmedAt: deps.clock.now(), lastSignInAt: deps.clock.now() });
  deps.store.tables.users.set(user.id, user);
  const registered = await registerClient(deps, {
    registrationType: "manual",
    redirectUris: [REDIRECT],
    clientType: "confidential",
  });
  if (!registered.ok) throw registered.error;
  const { client } = registered.value;
  const started = await startAuthorization(deps, {
    clientId: client.id,
    redirectUri: REDIRECT,
    scope: "email",
    state: "st",
    codeChallenge: hexToBase64Url(deps.tokens.hash(VERIFIER)),
    codeChallengeMethod: "S256",
  });
  if (!started.ok) throw started.error;
  const authorizationId = new URL(started.value.location).searchParams.get("authorization_id") as string;
  await authorizationDetails(deps, { authorizationId, userId: user.id });
  const decided = await decideConsent(deps, { authorizationId, userId: user.id, action: "approve" });
  if (!decided.ok) throw decided.error;
  const code = new URL(decided.value.redirectUrl).searchParams.get("code") as string;
  return { deps, client, code };
}

describe("DPoP-bound tokens of the code flow (RFC 9449 §5)", () => {
  it("binds the session and every access token of it to the request's key, refreshed with that key only", async () => {
    const { deps, client, code } = await approvedCode();
    const exchanged = await exchangeAuthorizationCode(deps, {
      dpop: KEY,
      client,
      code,
      codeVerifier: VERIFIER,
    });
    if (!exchanged.ok) throw exchanged.error;
    expect(exchanged.value.boundTo).toBe(KEY.jkt);
    expect(await deps.signer.verify(exchanged.value.accessToken)).toMatchObject({ cnf: KEY });
    expect([...deps.store.tables.sessions.values()][0]?.dpopJkt).toBe(KEY.jkt);
    const introspected = await introspectToken(deps, { client, token: exchanged.value.accessToken });
    expect(introspected).toMatchObject({ ok: true, value: { active: true, cnf: KEY } });

    const refreshToken = exchanged.value.refreshToken;
    for (const dpop of [null, OTHER]) {
      const refused = await refreshForClient(deps, { dpop, client, refreshToken });
      expect(refused).toMatchObject({ ok: false, error: { code: "invalid_grant" } });
    }
    const refreshed = await refreshForClient(deps, { dpop: KEY, client, refreshToken });
    if (!refreshed.ok) throw refreshed.error;
    expect(refreshed.value.boundTo).toBe(KEY.jkt);
    expect(await deps.signer.verify(refreshed.value.accessToken)).toMatchObject({ cnf: KEY });
  });

  it("issues unbound tokens without a proof; a proof on the refresh binds the access token it gets", async () => {
    const { deps, client, code } = await approvedCode();
    const exchanged = await exchangeAuthorizationCode(deps, {
      dpop: null,
      client,
      code,
      codeVerifier: VERIFIER,
    });
    if (!exchanged.ok) throw exchanged.error;
    expect(exchanged.value.boundTo).toBeUndefined();
    expect(await deps.signer.verify(exchanged.value.accessToken)).not.toHaveProperty("cnf");
    const refreshed = await refreshForClient(deps, {
      dpop: KEY,
      client,
      refreshToken: exchanged.value.refreshToken,
    });
    if (!refreshed.ok) throw refreshed.error;
    expect(refreshed.value.boundTo).toBe(KEY.jkt);
    expect(await deps.signer.verify(refreshed.value.accessToken)).toMatchObject({ cnf: KEY });
  });

  it("keeps the binding whatever the custom access token hook answers", async () => {
    const setup = await approvedCode();
    const hooks = fakeHooks({
      custom_access_token: (input) => {
        const { claims } = input as { claims: Record<string, unknown> };
        return ok({ claims: { ...claims, cnf: { jkt: "the-hook's" } } });
      },
    });
    const deps = { ...setup.deps, hooks: hooks.dispatcher };
    const bound = await exchangeAuthorizationCode(deps, {
      dpop: KEY,
      client: setup.client,
      code: setup.code,
      codeVerifier: VERIFIER,
    });
    if (!bound.ok) throw bound.error;
    expect(await deps.signer.verify(bound.value.accessToken)).toMatchObject({ cnf: KEY });
  });
});
