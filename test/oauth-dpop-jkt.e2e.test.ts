import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type FreshNamespace, migratedNamespace } from "@authsvc/adapters/testing";
import { calculateJwkThumbprint, exportJWK, type JWK, SignJWT } from "jose";
import * as oauth from "oauth4webapi";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insecure, REDIRECT, relyingParty, type Started } from "./support/oauth-relying-party.js";
import { startOAuthServer } from "./support/oauth-server.js";
import type { ServerProcess } from "./support/server-process.js";

/**
 * RFC 9449 §10: an authorization code bound to a DPoP key, by the `dpop_jkt` parameter of
 * `/oauth/authorize` or of a pushed request, or by the DPoP proof a pushed request came with. The
 * relying party is oauth4webapi (its DPoP handle signs the token request's proof); the refusals are
 * a proof of another key, no proof at all, and a pushed request whose proof and `dpop_jkt` disagree.
 */
type RelyingParty = Awaited<ReturnType<typeof relyingParty>>;
let ns: FreshNamespace;
let server: ServerProcess & { issuer: string };
let rp: RelyingParty;
const cwd = mkdtempSync(join(tmpdir(), "authsvc-dpop-jkt-"));

beforeAll(async () => {
  ns = await migratedNamespace();
  server = await startOAuthServer(ns, cwd);
  rp = await relyingParty(server);
}, 60_000);

afterAll(async () => {
  await server?.stop();
  await ns?.drop();
  rmSync(cwd, { recursive: true, force: true });
});

type KeyPair = Parameters<typeof oauth.DPoP>[1];
const ES256 = { name: "ECDSA", namedCurve: "P-256" } as const;
const newKeyPair = () => crypto.subtle.generateKey(ES256, true, ["sign", "verify"]) as Promise<KeyPair>;
const thumbprintOf = async (key: KeyPair) =>
  calculateJwkThumbprint((await exportJWK(key.publicKey)) as JWK, "sha256");

/** The consent page's address `/oauth/authorize` redirects to, as a started request. */
async function startedAt(authorize: URL, verifier: string, state: string): Promise<Started> {
  const response = await fetch(authorize, { redirect: "manual" });
  expect(response.status).toBe(302);
  const consent = new URL(response.headers.get("location") as string);
  return {
    authorizationId: consent.searchParams.get("authorization_id") as string,
    verifier,
    state,
    nonce: "n-1",
  };
}

/** The request's parameters, with PKCE; `extra` beside them (`dpop_jkt`). */
async function parameters(client: oauth.Client, extra: Record<string, string> = {}) {
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const params = new URLSearchParams({
    client_id: client.client_id,
    redirect_uri: REDIRECT,
    response_type: "code",
    scope: "openid email",
    state,
    nonce: "n-1",
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: "S256",
    ...extra,
  });
  return { params, verifier, state };
}

/** A request sent at `/oauth/authorize`, approved by a new user: its code's callback parameters. */
async function approved(client: oauth.Client, started: Started) {
  const { landing } = await rp.approve(started);
  return { callback: oauth.validateAuthResponse(rp.as, client, landing, started.state), started };
}

const exchange = (
  client: oauth.Client,
  code: { callback: URLSearchParams; started: Started },
  DPoP?: oauth.DPoPHandle,
) =>
  oauth.authorizationCodeGrantRequest(
    rp.as,
    client,
    oauth.None(),
    code.callback,
    REDIRECT,
    code.started.verifier,
    { ...insecure, ...(DPoP ? { DPoP } : {}) },
  );

/** A code whose exchange with `wrong` and with no proof is refused, and goes through with `right`. */
async function expectBoundTo(
  client: oauth.Client,
  code: { callback: URLSearchParams; started: Started },
  right: KeyPair,
) {
  const wrong = await exchange(client, code, oauth.DPoP(client, await newKeyPair()));
  expect(wrong.status).toBe(400);
  expect(await wrong.json()).toMatchObject({
    error: "invalid_grant",
    error_description: expect.stringContaining("dpop_jkt"),
  });
  const none = await exchange(client, code);
  expect(none.status).toBe(400);
  expect(await none.json()).toMatchObject({ error: "invalid_grant" });
  // Neither refusal spent the code: its holder, with the key, still gets the tokens.
  const tokens = await oauth.processAuthorizationCodeResponse(
    rp.as,
    client,
    await exchange(client, code, oauth.DPoP(client, right)),
    { expectedNonce: "n-1" },
  );
  expect(tokens.token_type).toBe("dpop");
  const claims = JSON.parse(Buffer.from(tokens.access_token.split(".")[1] as string, "base64url").toString());
  expect(claims.cnf).toEqual({ jkt: await thumbprintOf(right) });
}

describe("an authorization code bound to a DPoP key (RFC 9449 §10), with oauth4webapi", () => {
  it("dpop_jkt at /oauth/authorize: the code is exchanged with a proof of that key only", async () => {
    const client = await rp.registerPublicClient("dpop_jkt app");
    const key = await newKeyPair();
    const { params, verifier, state } = await parameters(client, { dpop_jkt: await thumbprintOf(key) });
    const url = new URL(rp.as.authorization_endpoint as string);
    url.search = params.toString();
    const code = await approved(client, await startedAt(url, verifier, state));
    await expectBoundTo(client, code, key);
  });

  it("refuses a dpop_jkt that is no SHA-256 thumbprint", async () => {
    const client = await rp.registerPublicClient("bad dpop_jkt app");
    const { params } = await parameters(client, { dpop_jkt: "not-a-thumbprint" });
    const url = new URL(rp.as.authorization_endpoint as string);
    url.search = params.toString();
    const response = await fetch(url, { redirect: "manual" });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      error: "invalid_request",
      error_description: expect.stringContaining("dpop_jkt"),
    });
  });

  it("a pushed request with a DPoP proof binds its code to the proof's key, or with dpop_jkt alone", async () => {
    const client = await rp.registerPublicClient("PAR DPoP app");
    for (const byProof of [true, false]) {
      const key = await newKeyPair();
      const { params, verifier, state } = await parameters(
        client,
        byProof ? {} : { dpop_jkt: await thumbprintOf(key) },
      );
      params.delete("client_id");
      const pushed = await oauth.processPushedAuthorizationResponse(
        rp.as,
        client,
        await oauth.pushedAuthorizationRequest(rp.as, client, oauth.None(), params, {
          ...insecure,
          ...(byProof ? { DPoP: oauth.DPoP(client, key) } : {}),
        }),
      );
      const url = new URL(rp.as.authorization_endpoint as string);
      url.search = new URLSearchParams({
        client_id: client.client_id,
        request_uri: pushed.request_uri,
      }).toString();
      const code = await approved(client, await startedAt(url, verifier, state));
      await expectBoundTo(client, code, key);
    }
  });

  it("refuses a pushed request whose dpop_jkt is not its proof's key, and a proof for another endpoint", async () => {
    const client = await rp.registerPublicClient("PAR mismatch app");
    const key = await newKeyPair();
    const { params } = await parameters(client, { dpop_jkt: await thumbprintOf(await newKeyPair()) });
    params.delete("client_id");
    const mismatched = await oauth.pushedAuthorizationRequest(rp.as, client, oauth.None(), params, {
      ...insecure,
      DPoP: oauth.DPoP(client, key),
    });
    expect(mismatched.status).toBe(400);
    expect(await mismatched.json()).toMatchObject({ error: "invalid_dpop_proof" });
    // A proof made for the token endpoint is not one for /oauth/par (htu): refused, nothing pushed.
    const jwk = await exportJWK(key.publicKey);
    const forToken = await new SignJWT({
      jti: crypto.randomUUID(),
      htm: "POST",
      htu: rp.as.token_endpoint,
      iat: Math.floor(Date.now() / 1000),
    })
      .setProtectedHeader({ alg: "ES256", typ: "dpop+jwt", jwk })
      .sign(key.privateKey);
    const body = new URLSearchParams(params);
    body.delete("dpop_jkt");
    body.set("client_id", client.client_id);
    const wrongUrl = await fetch(rp.as.pushed_authorization_request_endpoint as string, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", dpop: forToken },
      body,
    });
    expect(wrongUrl.status).toBe(400);
    expect(await wrongUrl.json()).toMatchObject({
      error: "invalid_dpop_proof",
      error_description: expect.stringContaining("htu"),
    });
  });
});
