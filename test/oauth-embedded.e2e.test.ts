import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { roleKey } from "@authsvc/http/testing";
import { calculateJwkThumbprint, decodeJwt, exportJWK, type JWK } from "jose";
import * as oauth from "oauth4webapi";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insecure, REDIRECT, relyingParty } from "./support/oauth-relying-party.js";
import { signedInUser, startOAuthServer } from "./support/oauth-server.js";
import type { ServerProcess } from "./support/server-process.js";

/**
 * The OAuth server's grants on the embedded database (PGlite, no DATABASE_URL), once each, with
 * oauth4webapi as the relying party: the code flow with PKCE and its refresh, client_credentials, the
 * device grant, DPoP-bound tokens, a pushed request and token exchange. The other oauth-* files run
 * the same on PostgreSQL, with their refusals; this one shows the embedded store keeps them working.
 */
const TOKEN_EXCHANGE = "urn:ietf:params:oauth:grant-type:token-exchange";
const DEVICE_GRANT = "urn:ietf:params:oauth:grant-type:device_code";
const DOWNSTREAM = "https://downstream.example/mcp";
const cwd = mkdtempSync(join(tmpdir(), "authsvc-oauth-embedded-"));
let server: (ServerProcess & { issuer: string }) | undefined;
let rp: Awaited<ReturnType<typeof relyingParty>>;
let admin: Record<string, string>;

beforeAll(async () => {
  server = await startOAuthServer("embedded", cwd, { AUTHSVC_OAUTH_DEVICE_POLL_INTERVAL: "1" });
  rp = await relyingParty(server);
  admin = { authorization: `Bearer ${await roleKey("service_role")}`, "content-type": "application/json" };
}, 120_000);

afterAll(async () => {
  await server?.stop();
  rmSync(cwd, { recursive: true, force: true });
});

/** A confidential client the admin creates with `fields`, as oauth4webapi holds it. */
async function adminClient(fields: Record<string, unknown>) {
  const response = await fetch(`${server?.url}/admin/oauth/clients`, {
    method: "POST",
    headers: admin,
    body: JSON.stringify({ client_name: "Embedded", redirect_uris: [REDIRECT], ...fields }),
  });
  const body = (await response.json()) as { client_id: string; client_secret: string };
  expect(response.status, JSON.stringify(body)).toBe(201);
  return { client: { client_id: body.client_id }, auth: oauth.ClientSecretBasic(body.client_secret) };
}

const none = oauth.None();

describe("the OAuth grants on the embedded database", () => {
  it("runs the code flow with PKCE (ID token checked), then a refresh that rotates", async () => {
    const client = await rp.registerPublicClient("Embedded app");
    const { tokens, who } = await rp.codeFlow(client, none);
    expect(oauth.getValidatedIdTokenClaims(tokens)?.email).toBe(who.email);
    const refreshed = await oauth.processRefreshTokenResponse(
      rp.as,
      client,
      await oauth.refreshTokenGrantRequest(rp.as, client, none, tokens.refresh_token as string, insecure),
    );
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
    expect(decodeJwt(refreshed.access_token).sub).toBe(who.user.id);
  });

  it("issues a machine client its own token (client_credentials)", async () => {
    const { client, auth } = await adminClient({ grant_types: ["client_credentials"] });
    const tokens = await oauth.processClientCredentialsResponse(
      rp.as,
      client,
      await oauth.clientCredentialsGrantRequest(rp.as, client, auth, {}, insecure),
    );
    expect(decodeJwt(tokens.access_token)).toMatchObject({
      sub: client.client_id,
      client_id: client.client_id,
    });
    expect(tokens.refresh_token).toBeUndefined();
  });

  it("gives a device its tokens once the user approved its code", async () => {
    const registered = await fetch(rp.as.registration_endpoint as string, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        client_name: "Embedded TV",
        redirect_uris: [REDIRECT],
        token_endpoint_auth_method: "none",
        grant_types: [DEVICE_GRANT, "refresh_token"],
      }),
    });
    const client: oauth.Client = {
      client_id: ((await registered.json()) as { client_id: string }).client_id,
    };
    const device = await oauth.processDeviceAuthorizationResponse(
      rp.as,
      client,
      await oauth.deviceAuthorizationRequest(rp.as, client, none, { scope: "openid email" }, insecure),
    );
    const poll = () => oauth.deviceCodeGrantRequest(rp.as, client, none, device.device_code, insecure);
    expect(((await (await poll()).json()) as { error: string }).error).toBe("authorization_pending");
    // The user types the code on the verification page, which sends them to the consent page.
    const page = await fetch(device.verification_uri);
    const cookie = (page.headers.get("set-cookie") ?? "").split(";")[0] as string;
    const entered = await fetch(device.verification_uri, {
      method: "POST",
      redirect: "manual",
      headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ user_code: device.user_code, csrf: cookie.split("=")[1] as string }),
    });
    expect(entered.status).toBe(303);
    const consent = new URL(entered.headers.get("location") as string);
    const authorizationId = consent.searchParams.get("authorization_id") as string;
    const { who } = await rp.approve({ authorizationId, verifier: "", state: "", nonce: "" });
    await new Promise((resolve) => setTimeout(resolve, (device.interval ?? 1) * 1000));
    const tokens = await oauth.processDeviceCodeResponse(rp.as, client, await poll());
    expect(decodeJwt(tokens.access_token).sub).toBe(who.user.id);
  });

  it("binds the code flow's tokens to a DPoP key: userinfo takes the proof and refuses the bearer", async () => {
    const client = await rp.registerPublicClient("Embedded DPoP app");
    const key = (await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, [
      "sign",
      "verify",
    ])) as oauth.CryptoKeyPair;
    const DPoP = oauth.DPoP(client, key);
    const started = await rp.authorize(client, "openid email");
    const { landing } = await rp.approve(started);
    const params = oauth.validateAuthResponse(rp.as, client, landing, started.state);
    const tokens = await oauth.processAuthorizationCodeResponse(
      rp.as,
      client,
      await oauth.authorizationCodeGrantRequest(rp.as, client, none, params, REDIRECT, started.verifier, {
        ...insecure,
        DPoP,
      }),
      { expectedNonce: started.nonce, requireIdToken: true },
    );
    expect(tokens.token_type).toBe("dpop");
    const jkt = await calculateJwkThumbprint((await exportJWK(key.publicKey)) as JWK, "sha256");
    expect(decodeJwt(tokens.access_token)).toMatchObject({ cnf: { jkt } });
    const info = await oauth.userInfoRequest(rp.as, client, tokens.access_token, { ...insecure, DPoP });
    expect(info.status).toBe(200);
    const bearer = await fetch(rp.as.userinfo_endpoint as string, {
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    expect(bearer.status).toBe(401);
  });

  it("takes a pushed request (PAR) and its request_uri once", async () => {
    const { client, auth } = await adminClient({ token_endpoint_auth_method: "client_secret_basic" });
    const verifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    const pushed = await oauth.processPushedAuthorizationResponse(
      rp.as,
      client,
      await oauth.pushedAuthorizationRequest(
        rp.as,
        client,
        auth,
        {
          redirect_uri: REDIRECT,
          response_type: "code",
          scope: "email",
          state,
          code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
          code_challenge_method: "S256",
        },
        insecure,
      ),
    );
    const url = new URL(rp.as.authorization_endpoint as string);
    url.search = new URLSearchParams({
      client_id: client.client_id,
      request_uri: pushed.request_uri,
    }).toString();
    const started = await fetch(url, { redirect: "manual" });
    expect(started.status).toBe(302);
    const authorizationId = new URL(started.headers.get("location") as string).searchParams.get(
      "authorization_id",
    ) as string;
    const { landing, who } = await rp.approve({ authorizationId, verifier, state, nonce: "" });
    const params = oauth.validateAuthResponse(rp.as, client, landing, state);
    const tokens = await oauth.processAuthorizationCodeResponse(
      rp.as,
      client,
      await oauth.authorizationCodeGrantRequest(rp.as, client, auth, params, REDIRECT, verifier, insecure),
    );
    expect(decodeJwt(tokens.access_token).sub).toBe(who.user.id);
    // The request_uri was used: a second start is refused (answered here, never redirected).
    const again = await fetch(url, { redirect: "manual" });
    expect(again.status).toBe(400);
  });

  it("exchanges a user's token for a downstream one with act (token exchange)", async () => {
    const agent = await adminClient({
      token_endpoint_auth_method: "client_secret_basic",
      grant_types: ["authorization_code", "refresh_token", TOKEN_EXCHANGE],
      token_exchange_audiences: [DOWNSTREAM],
    });
    const person = await signedInUser(server?.url ?? "");
    const started = await rp.authorize(agent.client, "openid email");
    const { landing } = await rp.approve(started, person);
    const params = oauth.validateAuthResponse(rp.as, agent.client, landing, started.state);
    const tokens = await oauth.processAuthorizationCodeResponse(
      rp.as,
      agent.client,
      await oauth.authorizationCodeGrantRequest(
        rp.as,
        agent.client,
        agent.auth,
        params,
        REDIRECT,
        started.verifier,
        insecure,
      ),
      { expectedNonce: started.nonce, requireIdToken: true },
    );
    const exchanged = await oauth.processGenericTokenEndpointResponse(
      rp.as,
      agent.client,
      await oauth.genericTokenEndpointRequest(
        rp.as,
        agent.client,
        agent.auth,
        TOKEN_EXCHANGE,
        {
          subject_token: tokens.access_token,
          subject_token_type: "urn:ietf:params:oauth:token-type:access_token",
          resource: DOWNSTREAM,
        },
        insecure,
      ),
    );
    expect(decodeJwt(exchanged.access_token)).toMatchObject({
      sub: person.user.id,
      aud: DOWNSTREAM,
      act: { sub: agent.client.client_id },
    });
  });
});
