import { createHash, randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type FreshNamespace, migratedNamespace } from "@authsvc/adapters/testing";
import { roleKey } from "@authsvc/http/testing";
import {
  calculateJwkThumbprint,
  createRemoteJWKSet,
  decodeJwt,
  EmbeddedJWK,
  exportJWK,
  type JWK,
  jwtVerify,
  SignJWT,
} from "jose";
import * as oauth from "oauth4webapi";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insecure, REDIRECT, relyingParty, type Started } from "./support/oauth-relying-party.js";
import { startOAuthServer } from "./support/oauth-server.js";
import type { ServerProcess } from "./support/server-process.js";

/**
 * DPoP (RFC 9449) end to end: an independent relying party (oauth4webapi's DPoP handle) gets tokens
 * bound to its key in the code flow, refreshes them and calls userinfo and a resource server of the
 * test (which checks `aud` and the binding as docs/oauth-dpop.md tells an MCP server to), on a server
 * that requires nonces (oauth4webapi retries the `use_dpop_nonce` challenge); and every refusal the
 * RFC names, with proofs crafted by hand (jose).
 */
type RelyingParty = Awaited<ReturnType<typeof relyingParty>>;
let ns: FreshNamespace;
let server: ServerProcess & { issuer: string };
let rp: RelyingParty;
let resourceServer: Server;
let resource: string;
const cwd = mkdtempSync(join(tmpdir(), "authsvc-dpop-"));

type KeyPair = Parameters<typeof oauth.DPoP>[1];
const ES256 = { name: "ECDSA", namedCurve: "P-256" } as const;
const newKeyPair = () => crypto.subtle.generateKey(ES256, true, ["sign", "verify"]) as Promise<KeyPair>;
const thumbprintOf = async (key: KeyPair) =>
  calculateJwkThumbprint((await exportJWK(key.publicKey)) as JWK, "sha256");
const athOf = (token: string) => createHash("sha256").update(token).digest("base64url");

/**
 * A resource server as an MCP server would be: the token must verify with the issuer's keys, name
 * this resource in `aud`, and, being DPoP-bound (`cnf.jkt`), come with the `DPoP` scheme and a proof
 * for this request by that very key, hashing the token (`ath`).
 */
function startResourceServer(issuer: string, jwksUrl: string): Promise<Server> {
  const jwks = createRemoteJWKSet(new URL(jwksUrl));
  const rs = createServer(async (req, res) => {
    const refuse = (error: string) => {
      res.writeHead(401, { "www-authenticate": `DPoP error="${error}"` }).end();
    };
    try {
      const [scheme, token] = (req.headers.authorization ?? "").split(" ");
      if (!token) return refuse("invalid_token");
      const { payload } = await jwtVerify(token, jwks, { issuer, audience: resource });
      const jkt = (payload.cnf as { jkt?: string } | undefined)?.jkt;
      if (scheme !== "DPoP" || !jkt) return refuse("invalid_token");
      const proof = await jwtVerify(String(req.headers.dpop), EmbeddedJWK, {
        typ: "dpop+jwt",
        algorithms: ["ES256"],
        maxTokenAge: "60s",
      });
      const claims = proof.payload;
      const htu = `${resource}${(req.url ?? "/").split("?")[0]?.replace(/^\/mcp/, "")}`;
      if (claims.htm !== req.method || claims.htu !== htu) return refuse("invalid_dpop_proof");
      if (claims.ath !== athOf(token)) return refuse("invalid_dpop_proof");
      if ((await calculateJwkThumbprint(proof.protectedHeader.jwk as JWK, "sha256")) !== jkt)
        return refuse("invalid_dpop_proof");
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ sub: payload.sub }));
    } catch {
      refuse("invalid_token");
    }
  });
  return new Promise((resolve) => rs.listen(0, "127.0.0.1", () => resolve(rs)));
}

beforeAll(async () => {
  ns = await migratedNamespace();
  server = await startOAuthServer(ns, cwd, { AUTHSVC_DPOP_NONCE_REQUIRED: "true" });
  rp = await relyingParty(server);
  resourceServer = await startResourceServer(server.issuer, `${server.url}/.well-known/jwks.json`);
  resource = `http://127.0.0.1:${(resourceServer.address() as AddressInfo).port}/mcp`;
}, 60_000);

afterAll(async () => {
  resourceServer?.close();
  await server?.stop();
  await ns?.drop();
  rmSync(cwd, { recursive: true, force: true });
});

/** Runs `request` again once when the server answers a DPoP nonce challenge, as oauth4webapi's docs say. */
async function withNonceRetry<T>(request: () => Promise<T>, retries: { count: number } = { count: 0 }) {
  try {
    return await request();
  } catch (error) {
    if (!oauth.isDPoPNonceError(error)) throw error;
    retries.count += 1;
    return request();
  }
}

/** `/oauth/authorize` for `client` naming the test's resource, approved by a new user. */
async function approvedForResource(client: oauth.Client): Promise<{ started: Started; landing: URL }> {
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const url = new URL(rp.as.authorization_endpoint as string);
  url.search = new URLSearchParams({
    client_id: client.client_id,
    redirect_uri: REDIRECT,
    response_type: "code",
    scope: "openid email",
    state,
    nonce: "n-1",
    resource,
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: "S256",
  }).toString();
  const response = await fetch(url, { redirect: "manual" });
  expect(response.status).toBe(302);
  const consent = new URL(response.headers.get("location") as string);
  const started = {
    authorizationId: consent.searchParams.get("authorization_id") as string,
    verifier,
    state,
    nonce: "n-1",
  };
  const { landing } = await rp.approve(started);
  return { started, landing };
}

/** The code flow with a DPoP handle: its exchange retried once on the nonce challenge. */
async function boundCodeFlow(client: oauth.Client, auth: oauth.ClientAuth, DPoP: oauth.DPoPHandle) {
  const { started, landing } = await approvedForResource(client);
  const params = oauth.validateAuthResponse(rp.as, client, landing, started.state);
  const retries = { count: 0 };
  const tokens = await withNonceRetry(async () => {
    const response = await oauth.authorizationCodeGrantRequest(
      rp.as,
      client,
      auth,
      params,
      REDIRECT,
      started.verifier,
      { ...insecure, DPoP },
    );
    return oauth.processAuthorizationCodeResponse(rp.as, client, response, { expectedNonce: "n-1" });
  }, retries);
  return { tokens, retries };
}

/** The server's current nonce, as a client learns it: from the challenge of a proof without one. */
async function currentNonce(): Promise<string> {
  const response = await rp.tokenRequest({ grant_type: "refresh_token", refresh_token: "x", client_id: "x" });
  const nonce = response.headers.get("dpop-nonce");
  if (!nonce) throw new Error(`no DPoP-Nonce in a ${response.status} answer`);
  return nonce;
}

/** A proof crafted by hand: valid for `/oauth/token` with the current nonce unless told otherwise. */
async function proof(key: KeyPair, claims: Record<string, unknown> = {}) {
  const jwk = await exportJWK(key.publicKey);
  return new SignJWT({
    jti: randomUUID(),
    htm: "POST",
    htu: rp.as.token_endpoint,
    iat: Math.floor(Date.now() / 1000),
    nonce: await currentNonce(),
    ...claims,
  })
    .setProtectedHeader({ alg: "ES256", typ: "dpop+jwt", jwk })
    .sign(key.privateKey);
}

const refreshWith = (client: oauth.Client, refreshToken: string, dpop?: string) =>
  rp.tokenRequest(
    { grant_type: "refresh_token", refresh_token: refreshToken, client_id: client.client_id },
    dpop ? { dpop } : {},
  );

const adminFetch = async (path: string, init: RequestInit) =>
  fetch(`${server.url}${path}`, {
    ...init,
    headers: {
      authorization: `Bearer ${await roleKey("service_role")}`,
      "content-type": "application/json",
    },
  });

describe("DPoP (RFC 9449) with an independent relying party (oauth4webapi)", () => {
  it("advertises its proof algorithms in both metadata documents", async () => {
    expect(rp.as.dpop_signing_alg_values_supported).toEqual(["ES256", "EdDSA", "RS256", "PS256"]);
    const rfc8414 = await fetch(`${server.url}/.well-known/oauth-authorization-server`);
    expect(((await rfc8414.json()) as Record<string, unknown>).dpop_signing_alg_values_supported).toContain(
      "ES256",
    );
  });

  it("binds the code flow's tokens to the client's key: refresh, userinfo and a resource server check it", async () => {
    const client = await rp.registerPublicClient("DPoP app");
    const key = await newKeyPair();
    const DPoP = oauth.DPoP(client, key);
    const { tokens, retries } = await boundCodeFlow(client, oauth.None(), DPoP);
    // The server asked for a nonce and oauth4webapi retried with it.
    expect(retries.count).toBe(1);
    expect(tokens.token_type).toBe("dpop");
    const jkt = await thumbprintOf(key);
    expect(decodeJwt(tokens.access_token)).toMatchObject({ cnf: { jkt }, aud: ["authenticated", resource] });
    expect(await DPoP.calculateThumbprint()).toBe(jkt);

    const userinfo = await withNonceRetry(async () =>
      oauth.processUserInfoResponse(
        rp.as,
        client,
        oauth.skipSubjectCheck,
        await oauth.userInfoRequest(rp.as, client, tokens.access_token, { ...insecure, DPoP }),
      ),
    );
    expect(userinfo.email).toMatch(/@example\.com$/);

    const refreshed = await withNonceRetry(async () =>
      oauth.processRefreshTokenResponse(
        rp.as,
        client,
        await oauth.refreshTokenGrantRequest(rp.as, client, oauth.None(), tokens.refresh_token as string, {
          ...insecure,
          DPoP,
        }),
      ),
    );
    expect(refreshed.token_type).toBe("dpop");
    expect(decodeJwt(refreshed.access_token)).toMatchObject({ cnf: { jkt } });

    const call = await oauth.protectedResourceRequest(
      refreshed.access_token,
      "GET",
      new URL(`${resource}`),
      new Headers(),
      null,
      { ...insecure, DPoP },
    );
    expect(call.status).toBe(200);
    expect(await call.json()).toEqual({ sub: decodeJwt(refreshed.access_token).sub });
    // The resource server refuses the same token with another key's proof.
    const thief = oauth.DPoP(client, await newKeyPair());
    const stolen = oauth.protectedResourceRequest(
      refreshed.access_token,
      "GET",
      new URL(resource),
      new Headers(),
      null,
      { ...insecure, DPoP: thief },
    );
    await expect(stolen).rejects.toBeInstanceOf(oauth.WWWAuthenticateChallengeError);
  });

  it("refuses the refresh of a bound session with another key's proof, or none, and keeps the token usable", async () => {
    const client = await rp.registerPublicClient("DPoP app");
    const key = await newKeyPair();
    const { tokens } = await boundCodeFlow(client, oauth.None(), oauth.DPoP(client, key));
    const refreshToken = tokens.refresh_token as string;
    const other = await refreshWith(client, refreshToken, await proof(await newKeyPair()));
    expect(other.status).toBe(400);
    expect(await other.json()).toMatchObject({ error: "invalid_grant" });
    const none = await refreshWith(client, refreshToken);
    expect(none.status).toBe(400);
    expect(await none.json()).toMatchObject({ error: "invalid_grant" });
    // Nothing was spent: the key's holder refreshes.
    const own = await refreshWith(client, refreshToken, await proof(key));
    expect(own.status).toBe(200);
    expect(await own.json()).toMatchObject({ token_type: "DPoP" });
  });

  it("refuses a replayed proof, another URL or method, a stale iat, and a proof without the nonce", async () => {
    const client = await rp.registerPublicClient("DPoP app");
    const key = await newKeyPair();
    const { tokens } = await boundCodeFlow(client, oauth.None(), oauth.DPoP(client, key));
    let refreshToken = tokens.refresh_token as string;
    const once = await proof(key);
    const first = await refreshWith(client, refreshToken, once);
    expect(first.status).toBe(200);
    refreshToken = ((await first.json()) as { refresh_token: string }).refresh_token;
    const expectRefused = async (dpop: string, error: string, description: RegExp) => {
      const response = await refreshWith(client, refreshToken, dpop);
      expect(response.status).toBe(400);
      const body = (await response.json()) as { error: string; error_description: string };
      expect(body.error).toBe(error);
      expect(body.error_description).toMatch(description);
      return response;
    };
    await expectRefused(once, "invalid_dpop_proof", /already used/);
    await expectRefused(
      await proof(key, { htu: `${server.issuer}/oauth/revoke` }),
      "invalid_dpop_proof",
      /htu/,
    );
    // The internal address is not the one the client uses.
    await expectRefused(
      await proof(key, { htu: `${server.url.replace("127.0.0.1", "localhost")}/oauth/token` }),
      "invalid_dpop_proof",
      /htu/,
    );
    await expectRefused(await proof(key, { htm: "GET" }), "invalid_dpop_proof", /htm/);
    const stale = Math.floor(Date.now() / 1000) - 600;
    await expectRefused(await proof(key, { iat: stale }), "invalid_dpop_proof", /iat/);
    const noNonce = await expectRefused(await proof(key, { nonce: undefined }), "use_dpop_nonce", /nonce/);
    expect(noNonce.headers.get("dpop-nonce")).toMatch(/^[\w-]{43}$/);
    await expectRefused(await proof(key, { nonce: "made-up" }), "use_dpop_nonce", /nonce/);
    // A proof signed by a key other than its header's, or carrying a private key, is no proof.
    const forged = (await proof(key)).split(".");
    const otherSignature = (await proof(await newKeyPair())).split(".")[2];
    await expectRefused(`${forged[0]}.${forged[1]}.${otherSignature}`, "invalid_dpop_proof", /JWS/);
    const privateJwk = await exportJWK(key.privateKey);
    const leaky = await new SignJWT({
      jti: randomUUID(),
      htm: "POST",
      htu: rp.as.token_endpoint,
      iat: Math.floor(Date.now() / 1000),
      nonce: await currentNonce(),
    })
      .setProtectedHeader({ alg: "ES256", typ: "dpop+jwt", jwk: privateJwk })
      .sign(key.privateKey);
    await expectRefused(leaky, "invalid_dpop_proof", /JWS/);
    // After all that, the refresh token is still the key holder's.
    expect((await refreshWith(client, refreshToken, await proof(key))).status).toBe(200);
  });

  it("refuses a bound token as Bearer at userinfo, or with another key's proof, with a DPoP challenge", async () => {
    const client = await rp.registerPublicClient("DPoP app");
    const key = await newKeyPair();
    const { tokens } = await boundCodeFlow(client, oauth.None(), oauth.DPoP(client, key));
    const userinfo = rp.as.userinfo_endpoint as string;
    const asBearer = await fetch(userinfo, { headers: { authorization: `Bearer ${tokens.access_token}` } });
    expect(asBearer.status).toBe(401);
    expect(asBearer.headers.get("www-authenticate")).toMatch(/^DPoP error="invalid_token"/);
    const userinfoProof = (k: KeyPair, extra: Record<string, unknown> = {}) =>
      proof(k, { htm: "GET", htu: userinfo, ath: athOf(tokens.access_token), ...extra });
    const call = async (dpop: string) =>
      fetch(userinfo, { headers: { authorization: `DPoP ${tokens.access_token}`, dpop } });
    const otherKey = await call(await userinfoProof(await newKeyPair()));
    expect(otherKey.status).toBe(401);
    expect(otherKey.headers.get("www-authenticate")).toMatch(/^DPoP error="invalid_dpop_proof"/);
    const otherToken = await call(await userinfoProof(key, { ath: athOf("another token") }));
    expect(otherToken.headers.get("www-authenticate")).toMatch(/error="invalid_dpop_proof"/);
    const noNonce = await call(await userinfoProof(key, { nonce: undefined }));
    expect(noNonce.status).toBe(401);
    expect(noNonce.headers.get("www-authenticate")).toMatch(/^DPoP error="use_dpop_nonce"/);
    expect(noNonce.headers.get("dpop-nonce")).toBeTruthy();
    const good = await call(await userinfoProof(key));
    expect(good.status).toBe(200);
    // An unbound token is no DPoP token.
    const plain = await rp.codeFlow(await rp.registerPublicClient(), oauth.None(), "email");
    expect(plain.tokens.token_type).toBe("bearer");
    const unbound = await fetch(userinfo, {
      headers: { authorization: `DPoP ${plain.tokens.access_token}`, dpop: await userinfoProof(key) },
    });
    expect(unbound.status).toBe(401);
  });

  it("requires a proof from a client registered with dpop_bound_access_tokens; introspection answers cnf", async () => {
    const created = await adminFetch("/admin/oauth/clients", {
      method: "POST",
      body: JSON.stringify({
        client_name: "Bound agent",
        redirect_uris: [REDIRECT],
        token_endpoint_auth_method: "client_secret_basic",
        dpop_bound_access_tokens: true,
      }),
    });
    expect(created.status).toBe(201);
    const body = (await created.json()) as Record<string, unknown>;
    expect(body.dpop_bound_access_tokens).toBe(true);
    const client: oauth.Client = { client_id: body.client_id as string };
    const auth = oauth.ClientSecretBasic(body.client_secret as string);
    const { started, landing } = await approvedForResource(client);
    const params = oauth.validateAuthResponse(rp.as, client, landing, started.state);
    const withoutProof = await oauth.authorizationCodeGrantRequest(
      rp.as,
      client,
      auth,
      params,
      REDIRECT,
      started.verifier,
      insecure,
    );
    expect(withoutProof.status).toBe(400);
    expect(await withoutProof.json()).toMatchObject({ error: "invalid_dpop_proof" });
    // The code was not spent: with a proof, the exchange goes through.
    const key = await newKeyPair();
    const DPoP = oauth.DPoP(client, key);
    const tokens = await withNonceRetry(async () =>
      oauth.processAuthorizationCodeResponse(
        rp.as,
        client,
        await oauth.authorizationCodeGrantRequest(rp.as, client, auth, params, REDIRECT, started.verifier, {
          ...insecure,
          DPoP,
        }),
        { expectedNonce: "n-1" },
      ),
    );
    expect(tokens.token_type).toBe("dpop");
    const introspection = await oauth.processIntrospectionResponse(
      rp.as,
      client,
      await oauth.introspectionRequest(rp.as, client, auth, tokens.access_token, insecure),
    );
    expect(introspection).toMatchObject({ active: true, cnf: { jkt: await thumbprintOf(key) } });
    const updated = await adminFetch(`/admin/oauth/clients/${client.client_id}`, {
      method: "PUT",
      body: JSON.stringify({ dpop_bound_access_tokens: false }),
    });
    expect(((await updated.json()) as Record<string, unknown>).dpop_bound_access_tokens).toBe(false);
  });
});
