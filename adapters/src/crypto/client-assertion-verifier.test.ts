import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { type CryptoKey, exportJWK, generateKeyPair, type JWK, SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { guardedFetch } from "../net/guarded-fetch.js";
import { clientAssertionVerifier } from "./client-assertion-verifier.js";

const ASYMMETRIC = ["RS256", "ES256", "EdDSA"];
const claims = { iss: "c", sub: "c", aud: "https://as.example", jti: "j", exp: 2_000_000_000 };

async function keyPair(kid: string) {
  const { privateKey, publicKey } = await generateKeyPair("ES256", { extractable: true });
  return { privateKey, jwk: { ...(await exportJWK(publicKey)), kid, alg: "ES256" } as JWK };
}
const sign = (key: CryptoKey | Uint8Array, header: { alg: string; kid?: string }) =>
  new SignJWT(claims).setProtectedHeader(header).sign(key);

/** A key-set server on 127.0.0.1: what it answers is `served`; `delayMs` and `padding` make it slow or big. */
let server: Server;
let base = "";
const served = { jwks: { keys: [] as JWK[] }, delayMs: 0, padding: 0, hits: 0 };
beforeAll(async () => {
  server = createServer((_req, res) => {
    served.hits++;
    setTimeout(() => {
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify({ ...served.jwks, padding: "x".repeat(served.padding) }));
    }, served.delayMs);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const loopback = (maxAnswerBytes = 64 * 1024) =>
  guardedFetch({ allowLoopbackForTests: true, maxAnswerBytes });

describe("clientAssertionVerifier", () => {
  it("verifies a signature of an inline key; refuses none, an HMAC and another key", async () => {
    const { privateKey, jwk } = await keyPair("k1");
    const other = await keyPair("k1");
    const verifier = clientAssertionVerifier({ fetch: loopback() });
    const keys = { kind: "public" as const, jwks: { keys: [jwk] }, jwksUri: null };
    const good = await sign(privateKey, { alg: "ES256", kid: "k1" });
    expect(await verifier.verify(good, keys, ASYMMETRIC)).toMatchObject({ ok: true, claims });
    expect(verifier.decode(good)).toMatchObject({ header: { alg: "ES256", kid: "k1" }, claims });
    const forged = await sign(other.privateKey, { alg: "ES256", kid: "k1" });
    expect(await verifier.verify(forged, keys, ASYMMETRIC)).toMatchObject({ ok: false });
    const [h, p] = good.split(".");
    const none = `${Buffer.from(JSON.stringify({ alg: "none" })).toString("base64url")}.${p}.`;
    expect(await verifier.verify(none, keys, ASYMMETRIC)).toMatchObject({ ok: false });
    // The public key's bytes as an HMAC secret (the classic confusion) is refused by the allow-list.
    const hs = await sign(new TextEncoder().encode(JSON.stringify(jwk)), { alg: "HS256", kid: "k1" });
    expect(await verifier.verify(hs, keys, ASYMMETRIC)).toMatchObject({
      ok: false,
      reason: "algorithm HS256 not allowed",
    });
    expect(await verifier.verify(`${h}.${p}`, keys, ASYMMETRIC)).toMatchObject({ ok: false });
    expect(verifier.decode("garbage")).toBeNull();
  });

  it("verifies an HMAC with the secret, only with an HS algorithm", async () => {
    const secret = "s".repeat(48);
    const verifier = clientAssertionVerifier({ fetch: loopback() });
    const hs = await sign(new TextEncoder().encode(secret), { alg: "HS256" });
    expect(await verifier.verify(hs, { kind: "secret", secret }, ["HS256"])).toMatchObject({ ok: true });
    expect(await verifier.verify(hs, { kind: "secret", secret: "other" }, ["HS256"])).toMatchObject({
      ok: false,
    });
    expect(await verifier.verify(hs, { kind: "secret", secret }, ["HS512"])).toMatchObject({ ok: false });
  });

  it("fetches jwks_uri once, caches it, fetches it again for an unknown kid, and refuses a kid still unknown", async () => {
    const first = await keyPair("k1");
    const rotated = await keyPair("k2");
    served.jwks = { keys: [first.jwk] };
    served.hits = 0;
    const verifier = clientAssertionVerifier({ fetch: loopback(), refetchCooldownMs: 0 });
    const keys = { kind: "public" as const, jwks: null, jwksUri: `${base}/jwks` };
    const a = await sign(first.privateKey, { alg: "ES256", kid: "k1" });
    expect(await verifier.verify(a, keys, ASYMMETRIC)).toMatchObject({ ok: true });
    expect(await verifier.verify(a, keys, ASYMMETRIC)).toMatchObject({ ok: true });
    expect(served.hits).toBe(1);
    served.jwks = { keys: [first.jwk, rotated.jwk] };
    const b = await sign(rotated.privateKey, { alg: "ES256", kid: "k2" });
    expect(await verifier.verify(b, keys, ASYMMETRIC)).toMatchObject({ ok: true });
    expect(served.hits).toBe(2);
    const unknown = await keyPair("k3");
    const c = await sign(unknown.privateKey, { alg: "ES256", kid: "k3" });
    expect(await verifier.verify(c, keys, ASYMMETRIC)).toMatchObject({ ok: false });
  });

  it("fetches again for an unknown kid at most once per cooldown", async () => {
    const first = await keyPair("k1");
    served.jwks = { keys: [first.jwk] };
    served.hits = 0;
    const verifier = clientAssertionVerifier({ fetch: loopback(), refetchCooldownMs: 60_000 });
    const keys = { kind: "public" as const, jwks: null, jwksUri: `${base}/cool` };
    const unknown = await keyPair("zz");
    const c = await sign(unknown.privateKey, { alg: "ES256", kid: "zz" });
    for (let i = 0; i < 5; i++)
      expect(await verifier.verify(c, keys, ASYMMETRIC)).toMatchObject({ ok: false });
    expect(served.hits).toBe(1);
  });

  it("refuses a jwks_uri that answers too slowly or too much, and a private address", async () => {
    const { privateKey, jwk } = await keyPair("k1");
    const a = await sign(privateKey, { alg: "ES256", kid: "k1" });
    served.jwks = { keys: [jwk] };
    served.delayMs = 500;
    const slow = clientAssertionVerifier({ fetch: loopback(), timeoutMs: 100 });
    const keys = { kind: "public" as const, jwks: null, jwksUri: `${base}/slow` };
    const started = Date.now();
    expect(await slow.verify(a, keys, ASYMMETRIC)).toMatchObject({ ok: false });
    expect(Date.now() - started).toBeLessThan(400);
    served.delayMs = 0;
    served.padding = 100_000;
    const small = clientAssertionVerifier({ fetch: loopback(1024) });
    expect(await small.verify(a, { ...keys, jwksUri: `${base}/big` }, ASYMMETRIC)).toMatchObject({
      ok: false,
    });
    served.padding = 0;
    const strict = clientAssertionVerifier({ fetch: guardedFetch() });
    expect(await strict.verify(a, { ...keys, jwksUri: `${base}/jwks` }, ASYMMETRIC)).toMatchObject({
      ok: false,
    });
    expect(
      await strict.verify(a, { ...keys, jwksUri: "https://169.254.169.254/jwks" }, ASYMMETRIC),
    ).toMatchObject({ ok: false });
  });

  it("keeps at most maxCached key sets", async () => {
    const { privateKey, jwk } = await keyPair("k1");
    served.jwks = { keys: [jwk] };
    served.hits = 0;
    const verifier = clientAssertionVerifier({ fetch: loopback(), maxCached: 2 });
    const a = await sign(privateKey, { alg: "ES256", kid: "k1" });
    for (const path of ["/a", "/b", "/c", "/a"])
      await verifier.verify(a, { kind: "public", jwks: null, jwksUri: `${base}${path}` }, ASYMMETRIC);
    // /a was pushed out by /c, so fetched again.
    expect(served.hits).toBe(4);
  });
});
