import { describe, expect, it } from "vitest";
import { hexToBase64Url } from "../pkce/index.js";
import { aUser, fakeDeps } from "../testing/index.js";
import { startAuthorization } from "./authorize.js";
import { registerClient } from "./clients.js";
import { authorizationDetails, decideConsent } from "./consent.js";
import { endSession } from "./end-session.js";
import { exchangeAuthorizationCode, refreshForClient } from "./token-grants.js";

const VERIFIER = "v".repeat(64);
const REDIRECT = "https://app.example/cb";
const AFTER = "https://app.example/signed-out?x=1";

/** A signed-in user's session with a client that registered `AFTER`, and its ID token. */
async function signedIn() {
  const deps = fakeDeps();
  const user = aUser({ emailConfirmedAt: deps.clock.now(), lastSignInAt: deps.clock.now() });
  deps.store.tables.users.set(user.id, user);
  const registered = await registerClient(deps, {
    registrationType: "manual",
    redirectUris: [REDIRECT],
    postLogoutRedirectUris: [AFTER],
    authMethod: "none",
  });
  if (!registered.ok) throw registered.error;
  const { client } = registered.value;
  const started = await startAuthorization(deps, {
    clientId: client.id,
    redirectUri: REDIRECT,
    scope: "openid email",
    codeChallenge: hexToBase64Url(deps.tokens.hash(VERIFIER)),
    codeChallengeMethod: "S256",
  });
  if (!started.ok) throw started.error;
  const authorizationId = new URL(started.value.location).searchParams.get("authorization_id") as string;
  await authorizationDetails(deps, { authorizationId, userId: user.id });
  const decided = await decideConsent(deps, { authorizationId, userId: user.id, action: "approve" });
  const approvedUrl = decided.ok ? decided.value.redirectUrl : "";
  const code = new URL(approvedUrl).searchParams.get("code") as string;
  const tokens = await exchangeAuthorizationCode(deps, { dpop: null, client, code, codeVerifier: VERIFIER });
  if (!tokens.ok) throw tokens.error;
  const idToken = tokens.value.idToken as string;
  const sid = deps.idTokens.signed[0]?.sid as string;
  return { deps, user, client, idToken, sid, refreshToken: tokens.value.refreshToken };
}

describe("ID tokens name their session", () => {
  it("carries sid, the session the exchange started, and stays an ID token", async () => {
    const { deps, sid } = await signedIn();
    expect(deps.store.tables.sessions.has(sid)).toBe(true);
    expect(deps.idTokens.signed[0]).not.toHaveProperty("session_id");
    expect(deps.idTokens.signed[0]).toMatchObject({ token_use: "id", sid });
  });
});

describe("endSession", () => {
  it("ends the hint's session and its refresh tokens, and redirects to the registered URI with the state", async () => {
    const { deps, client, idToken, sid, refreshToken } = await signedIn();
    const done = await endSession(deps, {
      idTokenHint: idToken,
      postLogoutRedirectUri: AFTER,
      state: "s t",
      confirmed: false,
    });
    expect(done).toEqual({
      ok: true,
      value: { kind: "done", client, redirectTo: `${AFTER}&state=s%20t`, ended: 1 },
    });
    expect(deps.store.tables.sessions.has(sid)).toBe(false);
    expect(await refreshForClient(deps, { dpop: null, client, refreshToken })).toMatchObject({ ok: false });
  });

  it("accepts an expired hint", async () => {
    const { deps, idToken, sid } = await signedIn();
    deps.clock.advance(86_400_000);
    expect(await endSession(deps, { idTokenHint: idToken, confirmed: false })).toMatchObject({
      ok: true,
      value: { kind: "done", redirectTo: null, ended: 1 },
    });
    expect(deps.store.tables.sessions.has(sid)).toBe(false);
  });

  it("never redirects to an unregistered URI, and refuses a hint it did not sign or another client's", async () => {
    const { deps, client, idToken, sid } = await signedIn();
    for (const uri of ["https://evil.example/", `${AFTER}&y=2`, REDIRECT]) {
      expect(
        await endSession(deps, { idTokenHint: idToken, postLogoutRedirectUri: uri, confirmed: true }),
      ).toMatchObject({
        ok: false,
        error: { code: "invalid_request" },
      });
    }
    expect(await endSession(deps, { idTokenHint: "jwt.{}", confirmed: true })).toMatchObject({
      ok: false,
      error: { code: "invalid_request" },
    });
    const other = await registerClient(deps, { registrationType: "manual", redirectUris: [REDIRECT] });
    const otherId = other.ok ? other.value.client.id : "";
    expect(
      await endSession(deps, { idTokenHint: idToken, clientId: otherId, confirmed: true }),
    ).toMatchObject({
      ok: false,
      error: { code: "invalid_request", message: "client_id is not the audience of id_token_hint" },
    });
    expect(await endSession(deps, { postLogoutRedirectUri: AFTER, confirmed: true })).toMatchObject({
      ok: false,
    });
    // Nothing refused ended anything.
    expect(deps.store.tables.sessions.has(sid)).toBe(true);
    expect(client.postLogoutRedirectUris).toEqual([AFTER]);
  });

  it("asks for confirmation without a hint, and then ends nothing", async () => {
    const { deps, client, sid } = await signedIn();
    expect(
      await endSession(deps, {
        clientId: client.id,
        postLogoutRedirectUri: AFTER,
        state: "s",
        confirmed: false,
      }),
    ).toEqual({ ok: true, value: { kind: "confirm", client } });
    expect(
      await endSession(deps, {
        clientId: client.id,
        postLogoutRedirectUri: AFTER,
        state: "s",
        confirmed: true,
      }),
    ).toEqual({ ok: true, value: { kind: "done", client, redirectTo: `${AFTER}&state=s`, ended: 0 } });
    expect(deps.store.tables.sessions.has(sid)).toBe(true);
  });

  it("leaves a session the hint names that is no longer the client's user's alone", async () => {
    const { deps, idToken, sid } = await signedIn();
    const session = deps.store.tables.sessions.get(sid);
    if (!session) throw new Error("no session");
    deps.store.tables.sessions.set(sid, { ...session, userId: aUser().id });
    expect(await endSession(deps, { idTokenHint: idToken, confirmed: false })).toMatchObject({
      ok: true,
      value: { ended: 0 },
    });
    expect(deps.store.tables.sessions.has(sid)).toBe(true);
  });
});
