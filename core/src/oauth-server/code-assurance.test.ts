import { describe, expect, it } from "vitest";
import { hexToBase64Url } from "../pkce/index.js";
import type { Session } from "../sessions/index.js";
import { aSession, aUser } from "../testing/index.js";
import { pending, REDIRECT, VERIFIER } from "../testing/oauth-server/code-flow-fixtures.js";
import { startAuthorization } from "./authorize.js";
import { authorizationDetails, decideConsent } from "./consent.js";
import { exchangeAuthorizationCode, refreshForClient } from "./token-grants.js";

const SIGNED_IN = 1_700_000_000;
const AAL2: Partial<Session> = {
  aal: "aal2",
  amr: [
    { method: "totp", timestamp: SIGNED_IN + 30 },
    { method: "password", timestamp: SIGNED_IN },
  ],
};

/** A pending request approved by its user from `session` (or from none), and its code exchanged. */
async function exchangedFrom(session: (user: ReturnType<typeof aUser>) => Session | null) {
  const setup = await pending("openid offline_access");
  const { deps, user, client, authorizationId } = setup;
  const consentingFrom = session(user);
  if (consentingFrom) await deps.store.sessions.create(consentingFrom);
  await authorizationDetails(deps, { authorizationId, userId: user.id });
  const decided = await decideConsent(deps, {
    authorizationId,
    userId: user.id,
    sessionId: consentingFrom?.id ?? null,
    action: "approve",
  });
  if (!decided.ok) throw decided.error;
  const code = new URL(decided.value.redirectUrl).searchParams.get("code") as string;
  const tokens = await exchangeAuthorizationCode(deps, {
    dpop: null,
    client,
    code,
    codeVerifier: VERIFIER,
    redirectUri: REDIRECT,
  });
  if (!tokens.ok) throw tokens.error;
  const started = [...deps.store.tables.sessions.values()].find((s) => s.oauthClientId === client.id);
  return { ...setup, tokens: tokens.value, started, idToken: deps.idTokens.signed.at(-1) };
}

describe("the level of the session a code was approved from", () => {
  it("carries aal2 and its methods into the code's session, its ID token, and its refreshes", async () => {
    const { deps, client, tokens, started, idToken } = await exchangedFrom((user) => aSession(user, AAL2));
    expect(started?.aal).toBe("aal2");
    expect(started?.amr.map((entry) => entry.method)).toEqual([
      "oauth_provider/authorization_code",
      "totp",
      "password",
    ]);
    expect(idToken).toMatchObject({
      acr: "aal2",
      amr: ["oauth_provider/authorization_code", "totp", "password"],
    });
    const refreshed = await refreshForClient(deps, {
      dpop: null,
      client,
      refreshToken: tokens.refreshToken,
    });
    if (!refreshed.ok) throw refreshed.error;
    for (const token of [tokens.accessToken, refreshed.value.accessToken])
      expect(await deps.signer.verify(token)).toMatchObject({
        aal: "aal2",
        amr: [{ method: "oauth_provider/authorization_code" }, { method: "totp" }, { method: "password" }],
      });
  });

  it("starts aal1 when the user consented from an aal1 session, from none, or from another user's", async () => {
    const aal1 = await exchangedFrom((user) => aSession(user));
    expect(aal1.started?.aal).toBe("aal1");
    expect(aal1.idToken).toMatchObject({
      acr: "aal1",
      amr: ["oauth_provider/authorization_code", "password"],
    });
    const none = await exchangedFrom(() => null);
    expect(none.started?.aal).toBe("aal1");
    expect(none.idToken).toMatchObject({ acr: "aal1", amr: ["oauth_provider/authorization_code"] });
    // A session id the decision names but that is not the deciding user's lends it nothing.
    const foreign = await exchangedFrom(() => aSession(aUser(), AAL2));
    expect(foreign.started?.aal).toBe("aal1");
    expect(foreign.started?.amr.map((entry) => entry.method)).toEqual(["oauth_provider/authorization_code"]);
  });

  it("carries the level into a request approved at once by an earlier consent", async () => {
    const { deps, user, client } = await exchangedFrom((user) => aSession(user, AAL2));
    // The client asks again; the earlier consent covers it, so opening it approves it without a form.
    const started = await startAuthorization(deps, {
      clientId: client.id,
      redirectUri: REDIRECT,
      scope: "openid",
      state: "again",
      nonce: "n2",
      codeChallenge: hexToBase64Url(deps.tokens.hash(VERIFIER)),
      codeChallengeMethod: "S256",
    });
    if (!started.ok) throw started.error;
    const authorizationId = new URL(started.value.location).searchParams.get("authorization_id") as string;
    const session = aSession(user, AAL2);
    await deps.store.sessions.create(session);
    const found = await authorizationDetails(deps, {
      authorizationId,
      userId: user.id,
      sessionId: session.id,
    });
    if (!found.ok || found.value.kind !== "redirect") throw new Error("not approved at once");
    const code = new URL(found.value.redirectUrl).searchParams.get("code") as string;
    const tokens = await exchangeAuthorizationCode(deps, {
      dpop: null,
      client,
      code,
      codeVerifier: VERIFIER,
    });
    if (!tokens.ok) throw tokens.error;
    expect(await deps.signer.verify(tokens.value.accessToken)).toMatchObject({ aal: "aal2" });
  });
});
