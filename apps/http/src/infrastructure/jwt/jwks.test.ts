import { generateJwtKey, parseJwtKeys, publicJwks } from "@authsvc/adapters";
import { describe, expect, it } from "vitest";
import { testApp } from "../../testing/test-app.js";

function jwksOf(keys: Record<string, unknown>[]) {
  const result = parseJwtKeys(JSON.stringify(keys));
  if (!result.ok) throw new Error(result.problems.join("; "));
  return publicJwks(result.ring);
}

describe("GET /.well-known/jwks.json", () => {
  it("serves the public keys of the set, never a symmetric one, with the reference's caching", async () => {
    const signing = generateJwtKey("ES256", { kid: "current" });
    const previous = generateJwtKey("EdDSA", { kid: "previous", signs: false });
    const shared = generateJwtKey("HS256", { kid: "shared", signs: false });
    const { app } = testApp({ jwks: jwksOf([previous, signing, shared]) });
    const res = await app.request("/.well-known/jwks.json");
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("public, max-age=600");
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    const body = (await res.json()) as { keys: Record<string, unknown>[] };
    expect(body.keys).toEqual([
      {
        kty: "OKP",
        crv: "Ed25519",
        x: previous.x,
        kid: "previous",
        alg: "EdDSA",
        use: "sig",
        key_ops: ["verify"],
      },
      {
        kty: "EC",
        crv: "P-256",
        x: signing.x,
        y: signing.y,
        kid: "current",
        alg: "ES256",
        use: "sig",
        key_ops: ["verify"],
      },
    ]);
    // No private or secret member of any key.
    for (const key of body.keys)
      for (const member of ["d", "k", "p", "q", "dp", "dq", "qi"]) expect(key).not.toHaveProperty(member);
  });

  it("publishes an RSA key's modulus and exponent only", async () => {
    const rsa = generateJwtKey("RS256", { kid: "rsa" });
    const body = (await (
      await testApp({ jwks: jwksOf([rsa]) }).app.request("/.well-known/jwks.json")
    ).json()) as {
      keys: Record<string, unknown>[];
    };
    expect(body.keys).toEqual([
      { kty: "RSA", n: rsa.n, e: rsa.e, kid: "rsa", alg: "RS256", use: "sig", key_ops: ["verify"] },
    ]);
  });

  it("answers an empty set with JWT_SECRET alone, under every base path, without an API key", async () => {
    const { app } = testApp();
    for (const path of ["/.well-known/jwks.json", "/auth/v1/.well-known/jwks.json"]) {
      const res = await app.request(path);
      expect(res.status).toBe(200);
      expect(res.headers.get("cache-control")).toBe("public, max-age=600");
      expect(await res.json()).toEqual({ keys: [] });
    }
  });

  it("answers other methods 405 with a JSON error", async () => {
    const res = await testApp().app.request("/.well-known/jwks.json", { method: "POST" });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toContain("GET");
    expect(await res.json()).toMatchObject({ code: 405 });
  });
});
