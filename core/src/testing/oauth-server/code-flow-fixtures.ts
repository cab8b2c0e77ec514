import { expect } from "vitest";
import {
  authorizationDetails,
  decideConsent,
  registerClient,
  startAuthorization,
} from "../../oauth-server/index.js";
import { hexToBase64Url } from "../../pkce/index.js";
import { aUser, fakeDeps } from "../index.js";

/** A parameter of a URL's query (core has no URL class: it runs on no particular platform). */
export const queryParameter = (url: string, name: string) =>
  decodeURIComponent(new RegExp(`[?&]${name}=([^&#]*)`).exec(url)?.[1] ?? "");

/** The code flow's first half against the fakes: a client, a user, a request, its approval. */
export const VERIFIER = "v".repeat(64);
export const REDIRECT = "https://app.example/cb?keep=1";

/** A public client an admin created, a signed-up user and a pending request of the client (S256 PKCE). */
export async function pending(scope = "openid email profile") {
  const deps = fakeDeps();
  const user = aUser({
    emailConfirmedAt: deps.clock.now(),
    lastSignInAt: deps.clock.now(),
    userMetadata: { name: "Ada" },
  });
  deps.store.tables.users.set(user.id, user);
  const registered = await registerClient(deps, {
    registrationType: "manual",
    redirectUris: [REDIRECT],
    authMethod: "none",
    name: "App",
  });
  if (!registered.ok) throw registered.error;
  const { client } = registered.value;
  const started = await startAuthorization(deps, {
    clientId: client.id,
    redirectUri: REDIRECT,
    scope,
    state: "st",
    nonce: "nn",
    // The fake token hash is no SHA-256, but the exchange checks the verifier through the same one.
    codeChallenge: hexToBase64Url(deps.tokens.hash(VERIFIER)),
    codeChallengeMethod: "S256",
  });
  if (!started.ok) throw started.error;
  const authorizationId = queryParameter(started.value.location, "authorization_id");
  return { deps, user, client, authorizationId };
}

export async function approved(scope?: string, sessionId?: string) {
  const setup = await pending(scope);
  const { deps, user, authorizationId } = setup;
  expect(await authorizationDetails(deps, { authorizationId, userId: user.id })).toMatchObject({
    ok: true,
    value: { kind: "details" },
  });
  const decided = await decideConsent(deps, {
    authorizationId,
    userId: user.id,
    sessionId,
    action: "approve",
  });
  if (!decided.ok) throw decided.error;
  const code = queryParameter(decided.value.redirectUrl, "code");
  return { ...setup, code, redirectUrl: decided.value.redirectUrl };
}
