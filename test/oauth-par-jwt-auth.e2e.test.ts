import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type FreshNamespace, migratedNamespace } from "@authsvc/adapters/testing";
import { roleKey } from "@authsvc/http/testing";
import { type CryptoKey, exportJWK, generateKeyPair, type JWK, SignJWT } from "jose";
import * as oauth from "oauth4webapi";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insecure, REDIRECT, relyingParty } from "./support/oauth-relying-party.js";
import { startOAuthServer } from "./support/oauth-server.js";
import type { ServerProcess } from "./support/server-process.js";

/**
 * Pushed authorization requests (RFC 9126) and client authentication by signed assertions (RFC 7523),
 * driven by oauth4webapi against the built server: `pushedAuthorizationRequest`, `PrivateKeyJwt`,
 * `ClientSecretJwt`, a client's keys served by a `jwks_uri` on 127.0.0.1; and every refusal.
 */
type RelyingParty = Awaited<ReturnType<typeof relyingParty>>;
let ns: FreshNamespace;
let server: ServerProcess & { issuer: string };
let rp: RelyingParty;
let as: oauth.AuthorizationServer;
let adminKey: string;
const cwd = mkdtempSync(join(tmpdir(), "authsvc-par-jwt-"));
const PAR_TTL_SECONDS = 3;

/** The client's key-set server: `/jwks` its keys, `/slow` too late, `/big` too much. */
let keyServer: Server;
let keysUrl = "";
const served: { keys: JWK[] } = { keys: [] };
let slowTimer: NodeJS.Timeout | undefined;

beforeAll(async () => {
  keyServer = createServer((req, res) => {
    res.setHeader("content-type", "application/json");
    if (req.url === "/slow") {
      slowTimer = setTimeout(() => res.end(JSON.stringify(served)), 10_000);
      return;
    }
    if (req.url === "/big") return res.end(JSON.stringify({ ...served, padding: "x".repeat(200_000) }));
    res.end(JSON.stringify(served));
  });
  await new Promise<void>((resolve) => keyServer.listen(0, "127.0.0.1", resolve));
  keysUrl = `http://127.0.0.1:${(keyServer.address() as AddressInfo).port}`;
  ns = await migratedNamespace();
  server = await startOAuthServer(ns, cwd, {
    AUTHSVC_OAUTH_SERVER_ALLOW_LOOPBACK_FOR_TESTS: "true",
    AUTHSVC_OAUTH_SERVER_PAR_TTL: `${PAR_TTL_SECONDS}s`,
  });
  rp = await relyingParty(server);
  as = rp.as;
  adminKey = await roleKey("service_role");
}, 60_000);

afterAll(async () => {
  clearTimeout(slowTimer);
  keyServer?.closeAllConnections();
  await new Promise<void>((resolve) => keyServer?.close(() => resolve()));
  await server?.stop();
  await ns?.drop();
  rmSync(cwd, { recursive: true, force: true });
});

async function adminCall(method: string, path: string, body?: unknown) {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${adminKey}`, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function keyPair(kid: string) {
  const { privateKey, publicKey } = await generateKeyPair("ES256", { extractable: true });
  const jwk = { ...(await exportJWK(publicKey)), kid, alg: "ES256", use: "sig" } as JWK;
  return { key: { key: privateKey, kid } as oauth.PrivateKey, jwk };
}

/** A private_key_jwt client created by the admin API with the given keys. */
async function keyedClient(keys: { jwks?: unknown; jwks_uri?: string }, extra: Record<string, unknown> = {}) {
  const created = await adminCall("POST", "/admin/oauth/clients", {
    client_name: "Signed app",
    redirect_uris: [REDIRECT],
    token_endpoint_auth_method: "private_key_jwt",
    ...keys,
    ...extra,
  });
  expect(created.status).toBe(201);
  expect(created.body.client_secret).toBeUndefined();
  return { client_id: created.body.client_id as string, token_endpoint_auth_method: "private_key_jwt" };
}

/** A pushed request of the client (oauth4webapi's PAR), with what the code exchange needs. */
async function push(client: oauth.Client, auth: oauth.ClientAuth, scope = "openid email") {
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const nonce = oauth.generateRandomNonce();
  const response = await oauth.pushedAuthorizationRequest(
    as,
    client,
    auth,
    {
      redirect_uri: REDIRECT,
      response_type: "code",
      scope,
      state,
      nonce,
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
      code_challenge_method: "S256",
    },
    insecure,
  );
  const pushed = await oauth.processPushedAuthorizationResponse(as, client, response);
  return { ...pushed, verifier, state, nonce };
}

/** The browser at `/oauth/authorize` with only `client_id` and `request_uri`. */
const authorizeWith = (clientId: string, requestUri: string, extra: Record<string, string> = {}) => {
  const url = new URL(as.authorization_endpoint as string);
  url.search = new URLSearchParams({ client_id: clientId, request_uri: requestUri, ...extra }).toString();
  return fetch(url, { redirect: "manual" });
};

/** A raw request to the introspection endpoint authenticated with `assertion`. */
const introspectWith = (assertion: string, token = "nothing") =>
  fetch(as.introspection_endpoint as string, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      token,
      client_assertion_type: "urn:ietf:params:oauth:client-assertion-type:jwt-bearer",
      client_assertion: assertion,
    }),
  });

/** An assertion of the client, signed by `key`, with `claims` changed. */
async function assertionOf(
  clientId: string,
  key: CryptoKey | Uint8Array,
  header: { alg: string; kid?: string },
  claims: Record<string, unknown> = {},
) {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({
    iss: clientId,
    sub: clientId,
    aud: as.issuer,
    jti: crypto.randomUUID(),
    iat: now,
    exp: now + 60,
    ...claims,
  })
    .setProtectedHeader(header)
    .sign(key);
}

describe("pushed authorization requests and signed client assertions", () => {
  it("advertises PAR and the assertion methods in the metadata", () => {
    expect(as.pushed_authorization_request_endpoint).toBe(`${server.issuer}/oauth/par`);
    expect(as.require_pushed_authorization_requests).toBe(false);
    expect(as.token_endpoint_auth_methods_supported).toEqual(
      expect.arrayContaining(["private_key_jwt", "client_secret_jwt"]),
    );
    expect(as.token_endpoint_auth_signing_alg_values_supported).toEqual(
      expect.arrayContaining(["ES256", "RS256", "EdDSA", "HS256"]),
    );
    expect(as.token_endpoint_auth_signing_alg_values_supported).not.toContain("none");
  });

  it("runs PAR then the code flow with private_key_jwt (inline jwks): introspection and revocation too", async () => {
    const { key, jwk } = await keyPair("inline-1");
    const client = await keyedClient({ jwks: { keys: [jwk] } });
    const auth = oauth.PrivateKeyJwt(key);
    const pushed = await push(client, auth);
    expect(pushed.request_uri).toMatch(/^urn:ietf:params:oauth:request_uri:[A-Za-z0-9_-]{40,}$/);
    expect(pushed.expires_in).toBe(PAR_TTL_SECONDS);
    // The query's other parameters are ignored: the pushed ones are the request.
    const browser = await authorizeWith(client.client_id, pushed.request_uri, {
      redirect_uri: "https://attacker.example/cb",
      scope: "phone",
    });
    expect(browser.status).toBe(302);
    const consent = new URL(browser.headers.get("location") as string);
    const authorizationId = consent.searchParams.get("authorization_id") as string;
    const { landing, details } = await rp.approve({
      authorizationId,
      verifier: pushed.verifier,
      state: pushed.state,
      nonce: pushed.nonce,
    });
    expect(details.data).toMatchObject({ redirect_uri: REDIRECT, scope: "openid email" });
    const params = oauth.validateAuthResponse(as, client, landing, pushed.state);
    const tokens = await oauth.processAuthorizationCodeResponse(
      as,
      client,
      await oauth.authorizationCodeGrantRequest(
        as,
        client,
        auth,
        params,
        REDIRECT,
        pushed.verifier,
        insecure,
      ),
      { expectedNonce: pushed.nonce, requireIdToken: true },
    );
    expect(tokens.access_token).toBeTruthy();
    const live = await oauth.processIntrospectionResponse(
      as,
      client,
      await oauth.introspectionRequest(as, client, auth, tokens.access_token, insecure),
    );
    expect(live.active).toBe(true);
    await oauth.processRevocationResponse(
      await oauth.revocationRequest(as, client, auth, tokens.refresh_token as string, insecure),
    );
    // A second use of the request_uri is refused.
    const again = await authorizeWith(client.client_id, pushed.request_uri);
    expect(again.status).toBe(400);
    expect(await again.json()).toMatchObject({ error: "invalid_request" });
  });

  it("authenticates client_secret_jwt (an HMAC with the secret the admin API issued)", async () => {
    const created = await adminCall("POST", "/admin/oauth/clients", {
      client_name: "HMAC app",
      redirect_uris: [REDIRECT],
      token_endpoint_auth_method: "client_secret_jwt",
    });
    expect(created.status).toBe(201);
    const secret = created.body.client_secret as string;
    const client = {
      client_id: created.body.client_id as string,
      token_endpoint_auth_method: "client_secret_jwt",
    };
    const { tokens } = await rp.codeFlow(client, oauth.ClientSecretJwt(secret));
    expect(tokens.access_token).toBeTruthy();
    // The secret itself (Basic) is not the registered method.
    const basic = await oauth.introspectionRequest(
      as,
      client,
      oauth.ClientSecretBasic(secret),
      tokens.access_token,
      insecure,
    );
    expect(basic.status).toBe(400);
    // A wrong secret's HMAC is refused.
    const wrong = await oauth.introspectionRequest(
      as,
      client,
      oauth.ClientSecretJwt(`${secret}x`),
      tokens.access_token,
      insecure,
    );
    expect(wrong.status).toBe(400);
  });

  it("registers a private_key_jwt client dynamically with a jwks_uri on 127.0.0.1, and verifies with its keys", async () => {
    const { key, jwk } = await keyPair("remote-1");
    served.keys = [jwk];
    const response = await fetch(as.registration_endpoint as string, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        client_name: "Remote keys",
        redirect_uris: [REDIRECT],
        token_endpoint_auth_method: "private_key_jwt",
        jwks_uri: `${keysUrl}/jwks`,
      }),
    });
    expect(response.status).toBe(201);
    const body = (await response.json()) as Record<string, unknown>;
    expect(body).toMatchObject({
      token_endpoint_auth_method: "private_key_jwt",
      jwks_uri: `${keysUrl}/jwks`,
    });
    expect(body.client_secret).toBeUndefined();
    const client = { client_id: body.client_id as string, token_endpoint_auth_method: "private_key_jwt" };
    const { tokens } = await rp.codeFlow(client, oauth.PrivateKeyJwt(key));
    expect(tokens.access_token).toBeTruthy();
    // A key the client publishes later is found by fetching again for its unknown kid.
    const rotated = await keyPair("remote-2");
    served.keys = [jwk, rotated.jwk];
    await new Promise((resolve) => setTimeout(resolve, 5_100));
    const pushed = await push(client, oauth.PrivateKeyJwt(rotated.key));
    expect(pushed.request_uri).toBeTruthy();
    // A kid it never published is refused.
    const stranger = await keyPair("remote-3");
    const refused = await introspectWith(
      await assertionOf(client.client_id, stranger.key.key, { alg: "ES256", kid: "remote-3" }),
    );
    expect(refused.status).toBe(400);
  }, 30_000);

  it("refuses a request_uri of another client, an expired one, and a plain request when the client requires PAR", async () => {
    const mine = await rp.createConfidentialClient("client_secret_basic");
    const theirs = await rp.createConfidentialClient("client_secret_basic");
    const pushed = await push(mine.client, mine.auth);
    const stolen = await authorizeWith(theirs.client.client_id, pushed.request_uri);
    expect(stolen.status).toBe(400);
    expect(await stolen.json()).toMatchObject({ error: "invalid_request" });
    // The other client's attempt did not use it up; time does.
    await new Promise((resolve) => setTimeout(resolve, (PAR_TTL_SECONDS + 1) * 1000));
    const late = await authorizeWith(mine.client.client_id, pushed.request_uri);
    expect(late.status).toBe(400);
    expect(await late.json()).toMatchObject({ error: "invalid_request" });

    const updated = await adminCall("PUT", `/admin/oauth/clients/${mine.client.client_id}`, {
      require_pushed_authorization_requests: true,
    });
    expect(updated).toMatchObject({ status: 200, body: { require_pushed_authorization_requests: true } });
    const plain = new URL(as.authorization_endpoint as string);
    plain.search = new URLSearchParams({
      client_id: mine.client.client_id,
      redirect_uri: REDIRECT,
      response_type: "code",
      state: "s1",
      code_challenge: await oauth.calculatePKCECodeChallenge(oauth.generateRandomCodeVerifier()),
      code_challenge_method: "S256",
    }).toString();
    const refused = await fetch(plain, { redirect: "manual" });
    // An admin's client: the error is sent back to its redirect URI.
    expect(refused.status).toBe(302);
    const back = new URL(refused.headers.get("location") as string);
    expect(back.searchParams.get("error")).toBe("invalid_request");
    expect(back.searchParams.get("state")).toBe("s1");
    // Pushed, it goes on.
    const viaPar = await authorizeWith(
      mine.client.client_id,
      (await push(mine.client, mine.auth)).request_uri,
    );
    expect(viaPar.status).toBe(302);
    expect(
      new URL(viaPar.headers.get("location") as string).searchParams.get("authorization_id"),
    ).toBeTruthy();
  }, 30_000);

  it("refuses PAR problems as OAuth JSON: an unregistered redirect URI, PKCE plain, a bad client", async () => {
    const { client, auth } = await rp.createConfidentialClient("client_secret_post");
    const par = (fields: Record<string, string>, authorization = auth) =>
      oauth.pushedAuthorizationRequest(as, client, authorization, fields, insecure);
    const base = {
      redirect_uri: REDIRECT,
      response_type: "code",
      code_challenge: "c".repeat(43),
      code_challenge_method: "S256",
    };
    for (const [fields, description] of [
      [{ ...base, redirect_uri: "https://attacker.example/cb" }, /redirect_uri/],
      [{ ...base, code_challenge_method: "plain" }, /S256/],
      [{ ...base, request_uri: "urn:ietf:params:oauth:request_uri:x" }, /request_uri/],
    ] as const) {
      const response = await par(fields);
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({
        error: "invalid_request",
        error_description: expect.stringMatching(description),
      });
    }
    const unauthenticated = await par(base, oauth.ClientSecretPost("wrong"));
    expect(unauthenticated.status).toBe(400);
  });

  it("refuses a replayed jti, a wrong aud, an expired assertion, alg none, an HMAC and an unknown kid for private_key_jwt", async () => {
    const { key, jwk } = await keyPair("k1");
    const client = await keyedClient({ jwks: { keys: [jwk] } });
    const sign = (
      claims: Record<string, unknown> = {},
      header: { alg: string; kid?: string } = { alg: "ES256", kid: "k1" },
    ) => assertionOf(client.client_id, key.key, header, claims);
    const once = await sign();
    expect((await introspectWith(once)).status).toBe(200);
    expect((await introspectWith(once)).status).toBe(400);
    expect((await introspectWith(await sign({ aud: "https://elsewhere.example" }))).status).toBe(400);
    const now = Math.floor(Date.now() / 1000);
    expect((await introspectWith(await sign({ iat: now - 600, exp: now - 300 }))).status).toBe(400);
    expect((await introspectWith(await sign({ exp: now + 3600 }))).status).toBe(400);
    const [, payload] = (await sign()).split(".");
    const none = `${Buffer.from(JSON.stringify({ alg: "none" })).toString("base64url")}.${payload}.`;
    expect((await introspectWith(none)).status).toBe(400);
    const hmac = await assertionOf(client.client_id, new TextEncoder().encode(JSON.stringify(jwk)), {
      alg: "HS256",
      kid: "k1",
    });
    expect((await introspectWith(hmac)).status).toBe(400);
    const other = await keyPair("k2");
    expect(
      (await introspectWith(await assertionOf(client.client_id, other.key.key, { alg: "ES256", kid: "k2" })))
        .status,
    ).toBe(400);
    // oauth4webapi's own assertion with a wrong audience, at the token endpoint.
    const wrongAud = oauth.PrivateKeyJwt(key, {
      [oauth.modifyAssertion]: (_header, claims) => {
        claims.aud = "https://elsewhere.example/token";
      },
    });
    const refused = await oauth.pushedAuthorizationRequest(
      as,
      client,
      wrongAud,
      { redirect_uri: REDIRECT },
      insecure,
    );
    expect(refused.status).toBe(400);
  });

  it("refuses, in bounded time, a client whose jwks_uri answers too slowly or too much", async () => {
    const { key, jwk } = await keyPair("k1");
    served.keys = [jwk];
    for (const path of ["/slow", "/big"]) {
      const client = await keyedClient({ jwks_uri: `${keysUrl}${path}` });
      const started = Date.now();
      const response = await introspectWith(
        await assertionOf(client.client_id, key.key, { alg: "ES256", kid: "k1" }),
      );
      expect(response.status).toBe(400);
      expect(Date.now() - started).toBeLessThan(6_000);
    }
  }, 20_000);

  it("refuses keys on a client of another method, private keys in jwks, and both jwks and jwks_uri", async () => {
    const { jwk } = await keyPair("k1");
    const refusals = [
      { token_endpoint_auth_method: "client_secret_basic", jwks: { keys: [jwk] } },
      { token_endpoint_auth_method: "private_key_jwt", jwks: { keys: [{ ...jwk, d: "secret" }] } },
      { token_endpoint_auth_method: "private_key_jwt", jwks: { keys: [jwk] }, jwks_uri: `${keysUrl}/jwks` },
      { token_endpoint_auth_method: "private_key_jwt" },
    ];
    for (const fields of refusals) {
      const created = await adminCall("POST", "/admin/oauth/clients", {
        redirect_uris: [REDIRECT],
        ...fields,
      });
      expect(created.status).toBe(400);
    }
  });
});
