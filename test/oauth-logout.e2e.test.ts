import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type FreshNamespace, migratedNamespace } from "@authsvc/adapters/testing";
import { createRemoteJWKSet, decodeJwt, type JWTPayload, jwtVerify } from "jose";
import * as oauth from "oauth4webapi";
import * as openid from "openid-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insecure, REDIRECT, relyingParty } from "./support/oauth-relying-party.js";
import { startOAuthServer } from "./support/oauth-server.js";
import type { ServerProcess } from "./support/server-process.js";

/**
 * OpenID Connect logout against the built server: RP-initiated logout driven by openid-client (the
 * second relying party: discovery, the code flow, its ID token's `sid`, the end-session URL), and
 * back-channel logout tokens POSTed to a receiver on 127.0.0.1 that verifies them as a client must
 * (JWKS signature, iss, aud, typ, events, sid, no nonce), after each class of path that ends a session.
 */
const BACKCHANNEL_EVENT = "http://schemas.openid.net/event/backchannel-logout";
const AFTER = "http://127.0.0.1:8123/signed-out";

type RelyingParty = Awaited<ReturnType<typeof relyingParty>>;
let ns: FreshNamespace;
let server: ServerProcess & { issuer: string };
let rp: RelyingParty;
const cwd = mkdtempSync(join(tmpdir(), "authsvc-oauth-logout-"));

/** A logout token the receiver accepted, and the client (path) it came for. */
interface Received {
  readonly client: string;
  readonly claims: JWTPayload;
}

/** The back-channel receiver: verifies each logout token, counts them per client, fails on request. */
const received: Received[] = [];
const failures = new Map<string, number>();
const attempts = new Map<string, number>();
const refused: string[] = [];
let receiver: Server;
let receiverBase = "";
const waiters: (() => void)[] = [];

async function verifyLogoutToken(client: string, token: string): Promise<JWTPayload> {
  const jwks = createRemoteJWKSet(new URL(`${server.issuer}/.well-known/jwks.json`));
  const { payload, protectedHeader } = await jwtVerify(token, jwks, {
    issuer: server.issuer,
    audience: client,
    typ: "logout+jwt",
    requiredClaims: ["iat", "exp", "jti", "sub", "sid", "events"],
  });
  expect(protectedHeader.typ).toBe("logout+jwt");
  expect(payload.nonce).toBeUndefined();
  expect(payload.events).toEqual({ [BACKCHANNEL_EVENT]: {} });
  return payload;
}

function startReceiver(): Promise<void> {
  receiver = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => {
      body += chunk;
    });
    req.on("end", () => {
      const client = (req.url ?? "").split("/")[2] ?? "";
      attempts.set(client, (attempts.get(client) ?? 0) + 1);
      const left = failures.get(client) ?? 0;
      if (left > 0) {
        failures.set(client, left - 1);
        res.writeHead(500).end();
        return;
      }
      const type = req.headers["content-type"] ?? "";
      const token = new URLSearchParams(body).get("logout_token") ?? "";
      verifyLogoutToken(client, token)
        .then((claims) => {
          if (!type.startsWith("application/x-www-form-urlencoded")) throw new Error(`content-type ${type}`);
          received.push({ client, claims });
          res.writeHead(200).end();
          for (const wake of waiters.splice(0)) wake();
        })
        .catch((error: unknown) => {
          refused.push(String(error));
          res.writeHead(400).end();
        });
    });
  });
  return new Promise((resolve) => {
    receiver.listen(0, "127.0.0.1", () => {
      const address = receiver.address();
      receiverBase = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
      resolve();
    });
  });
}

/** Resolves once the receiver accepted a logout token for `client` naming `sid` (bounded by the test's timeout). */
async function logoutFor(client: string, sid: string): Promise<Received> {
  for (;;) {
    const found = received.find((r) => r.client === client && r.claims.sid === sid);
    if (found) return found;
    await new Promise<void>((wake) => waiters.push(wake));
  }
}

/** A client registered dynamically with its logout metadata; its back-channel URI is the receiver's. */
async function logoutClient(name: string) {
  const response = await fetch(`${server.issuer}/oauth/clients/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      client_name: name,
      redirect_uris: [REDIRECT],
      token_endpoint_auth_method: "none",
      post_logout_redirect_uris: [AFTER],
    }),
  });
  expect(response.status).toBe(201);
  const { client_id: clientId } = (await response.json()) as { client_id: string };
  // The back-channel URI names the client, so the receiver knows the audience to expect.
  const { data, error } = await rp.admin.oauth.updateClient(clientId, {
    backchannel_logout_uri: `${receiverBase}/bc/${clientId}`,
  } as never);
  expect(error).toBeNull();
  expect(data).toMatchObject({ backchannel_logout_uri: `${receiverBase}/bc/${clientId}` });
  return { client_id: clientId, token_endpoint_auth_method: "none" } as oauth.Client;
}

beforeAll(async () => {
  await startReceiver();
  ns = await migratedNamespace();
  server = await startOAuthServer(ns, cwd, {
    AUTHSVC_OAUTH_SERVER_BACKCHANNEL_LOGOUT_INTERVAL: "100ms",
    AUTHSVC_OAUTH_SERVER_BACKCHANNEL_LOGOUT_RETRY_DELAY: "200ms",
    AUTHSVC_OAUTH_SERVER_BACKCHANNEL_LOGOUT_ALLOW_LOOPBACK_FOR_TESTS: "true",
    AUTHSVC_SECURITY_REFRESH_TOKEN_REUSE_INTERVAL: "0",
  });
  rp = await relyingParty(server);
}, 60_000);

afterAll(async () => {
  await server?.stop();
  await ns?.drop();
  await new Promise((resolve) => receiver?.close(resolve));
  rmSync(cwd, { recursive: true, force: true });
});

/** The code flow with openid-client: its discovery, the authorization URL, the consent (auth-js), the exchange. */
async function openidClientSignIn(clientId: string) {
  const config = await openid.discovery(new URL(server.issuer), clientId, undefined, openid.None(), {
    execute: [openid.allowInsecureRequests],
  });
  const verifier = openid.randomPKCECodeVerifier();
  const state = openid.randomState();
  const nonce = openid.randomNonce();
  const url = openid.buildAuthorizationUrl(config, {
    redirect_uri: REDIRECT,
    scope: "openid email",
    code_challenge: await openid.calculatePKCECodeChallenge(verifier),
    code_challenge_method: "S256",
    state,
    nonce,
  });
  const toConsent = await fetch(url, { redirect: "manual" });
  const consent = new URL(toConsent.headers.get("location") as string);
  const authorizationId = consent.searchParams.get("authorization_id") as string;
  const { landing } = await rp.approve({ authorizationId, verifier, state, nonce });
  const tokens = await openid.authorizationCodeGrant(config, landing, {
    pkceCodeVerifier: verifier,
    expectedState: state,
    expectedNonce: nonce,
  });
  return { config, tokens };
}

describe("RP-initiated logout (openid-client)", () => {
  it("advertises the end-session endpoint and back-channel logout", async () => {
    expect(rp.as).toMatchObject({
      end_session_endpoint: `${server.issuer}/oauth/logout`,
      backchannel_logout_supported: true,
      backchannel_logout_session_supported: true,
    });
  });

  it("ends the hint's session: redirected with the state, the refresh token refused, the logout token delivered", async () => {
    const client = await logoutClient("openid-client app");
    const { config, tokens } = await openidClientSignIn(client.client_id);
    const claims = tokens.claims();
    expect(claims?.sid).toEqual(expect.any(String));
    expect(claims).not.toHaveProperty("session_id");
    // An unregistered URI: refused, never redirected to, and nothing ended.
    const evil = openid.buildEndSessionUrl(config, {
      id_token_hint: tokens.id_token as string,
      post_logout_redirect_uri: "http://127.0.0.1:8123/elsewhere",
    });
    const refusedAnswer = await fetch(evil, { redirect: "manual" });
    expect(refusedAnswer.status).toBe(400);
    expect(refusedAnswer.headers.get("location")).toBeNull();
    const refreshed = await openid.refreshTokenGrant(config, tokens.refresh_token as string);
    expect(refreshed.access_token).toEqual(expect.any(String));

    const end = openid.buildEndSessionUrl(config, {
      id_token_hint: tokens.id_token as string,
      post_logout_redirect_uri: AFTER,
      state: "after-logout",
    });
    const answer = await fetch(end, { redirect: "manual" });
    expect(answer.status).toBe(302);
    expect(answer.headers.get("location")).toBe(`${AFTER}?state=after-logout`);
    await expect(openid.refreshTokenGrant(config, refreshed.refresh_token as string)).rejects.toMatchObject({
      error: "invalid_grant",
    });
    const delivered = await logoutFor(client.client_id, claims?.sid as string);
    expect(delivered.claims.sub).toBe(claims?.sub);
  });

  it("asks for confirmation without a hint, and ends nothing", async () => {
    const client = await logoutClient("no hint app");
    const { config, tokens } = await openidClientSignIn(client.client_id);
    const end = openid.buildEndSessionUrl(config, { post_logout_redirect_uri: AFTER, state: "s" });
    const answer = await fetch(end, { redirect: "manual" });
    expect(answer.status).toBe(200);
    expect(answer.headers.get("location")).toBeNull();
    expect(answer.headers.get("x-frame-options")).toBe("DENY");
    const page = await answer.text();
    expect(page).toContain('method="post"');
    expect(page).not.toContain("<script");
    const refreshed = await openid.refreshTokenGrant(config, tokens.refresh_token as string);
    expect(refreshed.access_token).toEqual(expect.any(String));
  });
});

describe("back-channel logout", () => {
  /** A session of a new client (oauth4webapi's code flow), and its ID token's sid. */
  async function session(name: string) {
    const client = await logoutClient(name);
    const flow = await rp.codeFlow(client, oauth.None(), "openid email");
    const sid = decodeJwt(flow.tokens.id_token as string).sid as string;
    expect(sid).toEqual(expect.any(String));
    return { client, sid, ...flow };
  }

  it("is delivered when the user signs out (/logout), retried when the client first answers 500", async () => {
    const { client, sid, who } = await session("signed out app");
    failures.set(client.client_id, 2);
    const { error } = await who.client.signOut({ scope: "global" });
    expect(error).toBeNull();
    await logoutFor(client.client_id, sid);
    expect(attempts.get(client.client_id)).toBe(3);
    expect(received.filter((r) => r.client === client.client_id)).toHaveLength(1);
  });

  it("is delivered when the client revokes its token (/oauth/revoke)", async () => {
    const { client, sid, tokens } = await session("revoking app");
    const revoked = await oauth.revocationRequest(
      rp.as,
      client,
      oauth.None(),
      tokens.refresh_token as string,
      insecure,
    );
    await oauth.processRevocationResponse(revoked);
    await logoutFor(client.client_id, sid);
  });

  it("is delivered when a rotated refresh token is reused", async () => {
    const { client, sid, tokens } = await session("reusing app");
    const first = tokens.refresh_token as string;
    const rotated = await oauth.refreshTokenGrantRequest(rp.as, client, oauth.None(), first, insecure);
    await oauth.processRefreshTokenResponse(rp.as, client, rotated);
    const reused = await oauth.refreshTokenGrantRequest(rp.as, client, oauth.None(), first, insecure);
    await expect(oauth.processRefreshTokenResponse(rp.as, client, reused)).rejects.toThrow();
    await logoutFor(client.client_id, sid);
  });

  it("is delivered when an admin bans the user", async () => {
    const { client, sid, who } = await session("banned user's app");
    const { error } = await rp.admin.updateUserById(who.user.id, { ban_duration: "24h" });
    expect(error).toBeNull();
    await logoutFor(client.client_id, sid);
  });

  it("verified every token it received, and none twice for one session", () => {
    expect(refused).toEqual([]);
    const keys = received.map((r) => `${r.client}:${r.claims.sid}`);
    expect(new Set(keys).size).toBe(keys.length);
  });
});
