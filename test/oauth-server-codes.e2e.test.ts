import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type FreshNamespace, migratedNamespace } from "@authsvc/adapters/testing";
import * as oauth from "oauth4webapi";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REDIRECT, relyingParty } from "./support/oauth-relying-party.js";
import { signedInUser, startOAuthServer } from "./support/oauth-server.js";
import type { ServerProcess } from "./support/server-process.js";

/**
 * The attacks on authorization codes and requests, against the built server: wrong verifiers, replays
 * and concurrent redemptions, unregistered redirect URIs, expired requests, another client's code.
 */
type RelyingParty = Awaited<ReturnType<typeof relyingParty>>;
let ns: FreshNamespace;
let server: ServerProcess & { issuer: string };
let as: RelyingParty["as"];
let registerPublicClient: RelyingParty["registerPublicClient"];
let authorize: RelyingParty["authorize"];
let tokenRequest: RelyingParty["tokenRequest"];
let approvedCode: RelyingParty["approvedCode"];
let createConfidentialClient: RelyingParty["createConfidentialClient"];
const cwd = mkdtempSync(join(tmpdir(), "authsvc-oauth-codes-"));

beforeAll(async () => {
  ns = await migratedNamespace();
  server = await startOAuthServer(ns, cwd);
  ({ as, registerPublicClient, authorize, tokenRequest, approvedCode, createConfidentialClient } =
    await relyingParty(server));
}, 60_000);

afterAll(async () => {
  await server?.stop();
  await ns?.drop();
  rmSync(cwd, { recursive: true, force: true });
});

describe("attacks on the OAuth server's codes and requests", () => {
  it("refuses a wrong verifier without spending the code, then a replayed code, which ends the first exchange's tokens", async () => {
    const client = await registerPublicClient();
    const { code, started } = await approvedCode(client);
    const exchange = (verifier: string) =>
      tokenRequest({
        grant_type: "authorization_code",
        code,
        code_verifier: verifier,
        client_id: client.client_id,
        redirect_uri: REDIRECT,
      });
    const wrong = await exchange(oauth.generateRandomCodeVerifier());
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toMatchObject({ error: "invalid_grant" });
    const right = await exchange(started.verifier);
    expect(right.status).toBe(200);
    const tokens = (await right.json()) as { access_token: string; refresh_token: string };
    const userinfo = () =>
      fetch(`${server.url}/oauth/userinfo`, { headers: { authorization: `Bearer ${tokens.access_token}` } });
    expect((await userinfo()).status).toBe(200);
    const replay = await exchange(started.verifier);
    expect(replay.status).toBe(400);
    expect(await replay.json()).toMatchObject({ error: "invalid_grant" });
    // RFC 6749 §4.1.2: what the first exchange issued is revoked.
    expect((await userinfo()).status).toBe(403);
    const refresh = await tokenRequest({
      grant_type: "refresh_token",
      refresh_token: tokens.refresh_token,
      client_id: client.client_id,
    });
    expect(refresh.status).toBe(400);
    expect(await refresh.json()).toMatchObject({ error: "invalid_grant" });
  });
  it("lets exactly one of 8 concurrent redemptions of a code get tokens, which the other 7, replays, end", async () => {
    const client = await registerPublicClient();
    const { code, started } = await approvedCode(client);
    const answers = await Promise.all(
      Array.from({ length: 8 }, () =>
        tokenRequest({
          grant_type: "authorization_code",
          code,
          code_verifier: started.verifier,
          client_id: client.client_id,
        }),
      ),
    );
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([200, 400, 400, 400, 400, 400, 400, 400]);
    // Each loser waited for the winner's lock and found the code spent: a second use ends the session.
    const sessions = await ns.sql`
      select count(*)::int as n from ${ns.sql(ns.namespace)}.sessions where oauth_client_id = ${client.client_id}`;
    expect(sessions[0]?.n).toBe(0);
  });
  it("answers an unregistered redirect URI, and a self-registered client's errors, in JSON, never redirecting", async () => {
    const client = await registerPublicClient();
    const url = new URL(as.authorization_endpoint as string);
    url.search = new URLSearchParams({
      client_id: client.client_id,
      redirect_uri: "https://attacker.example/cb",
      response_type: "code",
      code_challenge: await oauth.calculatePKCECodeChallenge(oauth.generateRandomCodeVerifier()),
      code_challenge_method: "S256",
    }).toString();
    const response = await fetch(url, { redirect: "manual" });
    expect(response.status).toBe(400);
    expect(response.headers.get("location")).toBeNull();
    expect(await response.json()).toMatchObject({
      error_code: "validation_failed",
      msg: "invalid redirect_uri",
    });
    // Past the redirect URI, a client that registered itself is still not trusted with a redirect
    // (anyone could have registered evil.test's URI): the error is answered here, PKCE missing.
    url.searchParams.set("redirect_uri", REDIRECT);
    url.searchParams.delete("code_challenge");
    url.searchParams.set("state", "st-1");
    const answered = await fetch(url, { redirect: "manual" });
    expect(answered.status).toBe(400);
    expect(answered.headers.get("location")).toBeNull();
    expect(await answered.json()).toMatchObject({ error: "invalid_request" });
    // An admin created this one: the error goes back to its redirect URI, with the state.
    const { client: trusted } = await createConfidentialClient("client_secret_basic");
    url.searchParams.set("client_id", trusted.client_id);
    const redirected = await fetch(url, { redirect: "manual" });
    expect(redirected.status).toBe(302);
    const back = new URL(redirected.headers.get("location") as string);
    expect(`${back.origin}${back.pathname}`).toBe(REDIRECT);
    expect(back.searchParams.get("error")).toBe("invalid_request");
    expect(back.searchParams.get("state")).toBe("st-1");
  });
  it("refuses an expired authorization, and its expired code", async () => {
    const client = await registerPublicClient();
    const started = await authorize(client, "email");
    const who = await signedInUser(server.url);
    const table = ns.sql`${ns.sql(ns.namespace)}.oauth_authorizations`;
    await ns.sql`update ${table} set created_at = now() - interval '20 minutes', expires_at = now() - interval '1 second' where authorization_id = ${started.authorizationId}`;
    const details = await who.client.oauth.getAuthorizationDetails(started.authorizationId);
    expect(details.error?.status).toBe(404);
    const [row] =
      await ns.sql`select status from ${table} where authorization_id = ${started.authorizationId}`;
    expect(row?.status).toBe("expired");
    // A code whose request expired after approval.
    const { code, started: second } = await approvedCode(client);
    await ns.sql`update ${table} set created_at = now() - interval '20 minutes', expires_at = now() - interval '1 second' where authorization_id = ${second.authorizationId}`;
    const late = await tokenRequest({
      grant_type: "authorization_code",
      code,
      code_verifier: second.verifier,
      client_id: client.client_id,
    });
    expect(late.status).toBe(400);
    expect(await late.json()).toMatchObject({ error: "invalid_grant" });
  });
  it("refuses another client's code, and leaves it to its own client", async () => {
    const mine = await registerPublicClient("Mine");
    const theirs = await registerPublicClient("Theirs");
    const { code, started } = await approvedCode(mine);
    const stolen = await tokenRequest({
      grant_type: "authorization_code",
      code,
      code_verifier: started.verifier,
      client_id: theirs.client_id,
    });
    expect(stolen.status).toBe(400);
    expect(await stolen.json()).toMatchObject({ error: "invalid_grant" });
    const own = await tokenRequest({
      grant_type: "authorization_code",
      code,
      code_verifier: started.verifier,
      client_id: mine.client_id,
    });
    expect(own.status).toBe(200);
  });

  it("lets exactly one of concurrent approvals of one request through", async () => {
    const client = await registerPublicClient();
    const started = await authorize(client, "email");
    const who = await signedInUser(server.url);
    expect((await who.client.oauth.getAuthorizationDetails(started.authorizationId)).error).toBeNull();
    const answers = await Promise.all(
      Array.from({ length: 6 }, () =>
        who.client.oauth.approveAuthorization(started.authorizationId, { skipBrowserRedirect: true }),
      ),
    );
    const codes = answers.flatMap((a) =>
      a.data ? [new URL((a.data as { redirect_url: string }).redirect_url).searchParams.get("code")] : [],
    );
    expect(codes).toHaveLength(1);
    expect(answers.filter((a) => a.error !== null)).toHaveLength(5);
  });
});
