import { describe, expect, it } from "vitest";
import { generateJwtKey } from "./jwt-key-generator.js";
import { JWT_KEY_ALGORITHMS, type JwtKeysResult, parseJwtKeys } from "./jwt-keys.js";

const problemsOf = (keys: unknown): string[] => {
  const result: JwtKeysResult = parseJwtKeys(typeof keys === "string" ? keys : JSON.stringify(keys));
  return result.ok ? [] : result.problems;
};

/** A key's public half only: what a JWKS publishes. */
function publicOnly(jwk: Record<string, unknown>): Record<string, unknown> {
  const { d: _d, p: _p, q: _q, dp: _dp, dq: _dq, qi: _qi, ...rest } = jwk;
  return rest;
}

describe("parseJwtKeys", () => {
  it.each(JWT_KEY_ALGORITHMS)("reads a generated %s key as the signing key", (alg) => {
    const jwk = generateJwtKey(alg);
    const result = parseJwtKeys(JSON.stringify([jwk]));
    if (!result.ok) throw new Error(result.problems.join("; "));
    expect(result.ring.signing).toMatchObject({ kid: jwk.kid, alg, signs: true });
    expect(result.ring.byKid.get(jwk.kid as string)?.alg).toBe(alg);
  });

  it("selects the key whose key_ops contain sign, wherever it stands; the others only verify", () => {
    const old = generateJwtKey("RS256", { signs: false });
    const current = generateJwtKey("ES256");
    const standby = generateJwtKey("EdDSA", { signs: false });
    const result = parseJwtKeys(JSON.stringify([old, current, standby]));
    if (!result.ok) throw new Error(result.problems.join("; "));
    expect(result.ring.signing.kid).toBe(current.kid);
    expect([...result.ring.byKid.keys()]).toEqual([old.kid, current.kid, standby.kid]);
  });

  it("publishes the public parameters of asymmetric keys only, as verify keys", () => {
    const es = generateJwtKey("ES256", { kid: "es" });
    const hs = generateJwtKey("HS256", { kid: "hs", signs: false });
    const result = parseJwtKeys(JSON.stringify([es, hs]));
    if (!result.ok) throw new Error(result.problems.join("; "));
    expect(result.ring.byKid.get("hs")?.publicJwk).toBeUndefined();
    expect(result.ring.byKid.get("es")?.publicJwk).toEqual({
      kty: "EC",
      crv: "P-256",
      x: es.x,
      y: es.y,
      kid: "es",
      alg: "ES256",
      use: "sig",
      key_ops: ["verify"],
    });
  });

  it("accepts a public-only key as a verify-only key", () => {
    const old = publicOnly(generateJwtKey("RS256", { signs: false }));
    const result = parseJwtKeys(JSON.stringify([old, generateJwtKey("ES256")]));
    expect(result.ok).toBe(true);
    if (result.ok) expect(result.ring.byKid.get(old.kid as string)?.signingKey).toBeUndefined();
  });

  it("refuses a public-only key as the signer", () => {
    const key = publicOnly(generateJwtKey("ES256", { kid: "pub" }));
    expect(problemsOf([key])).toEqual([
      'key 1 (kid "pub"): is a public key (no "d"), so it cannot sign: add its private part, or give it key_ops ["verify"]',
    ]);
  });

  it("refuses anything but exactly one signing key", () => {
    expect(problemsOf([generateJwtKey("ES256", { signs: false })])).toEqual([
      'no signing key: exactly one key needs "sign" in its key_ops',
    ]);
    const { key_ops: _ops, ...noOps } = generateJwtKey("ES256");
    expect(problemsOf([noOps])).toEqual(['no signing key: exactly one key needs "sign" in its key_ops']);
    expect(
      problemsOf([generateJwtKey("ES256", { kid: "a" }), generateJwtKey("RS256", { kid: "b" })]),
    ).toEqual([
      '2 signing keys ("a", "b"): exactly one key may have "sign" in its key_ops; give the others ["verify"]',
    ]);
  });

  it("refuses unknown or missing alg, and a key type that does not fit its alg", () => {
    const key = generateJwtKey("ES256", { kid: "k" });
    expect(problemsOf([{ ...key, alg: "PS256" }])).toEqual([
      'key 1 (kid "k"): alg "PS256" is not supported (expected one of HS256, RS256, RS512, ES256, ES512, EdDSA)',
    ]);
    expect(problemsOf([{ ...key, alg: undefined }])).toEqual([
      'key 1 (kid "k"): alg is required (one of HS256, RS256, RS512, ES256, ES512, EdDSA)',
    ]);
    expect(problemsOf([{ ...key, alg: "RS256" }])).toEqual(['key 1 (kid "k"): alg RS256 needs kty "RSA"']);
    expect(problemsOf([{ ...key, alg: "ES512" }])).toEqual([
      'key 1 (kid "k"): alg ES512 needs kty "EC" with crv "P-521"',
    ]);
    expect(problemsOf([{ ...key, alg: "HS256" }])).toEqual(['key 1 (kid "k"): alg HS256 needs kty "oct"']);
  });

  it("refuses a missing or repeated kid", () => {
    const { kid: _kid, ...noKid } = generateJwtKey("ES256");
    expect(problemsOf([noKid])).toEqual(["key 1: kid is required (a non-empty string)"]);
    expect(
      problemsOf([
        generateJwtKey("ES256", { kid: "same" }),
        generateJwtKey("ES256", { kid: "same", signs: false }),
      ]),
    ).toEqual(['key 2: kid "same" is used by an earlier key']);
  });

  it("refuses a short symmetric key, a short RSA modulus and mismatched key material", () => {
    const short = { ...generateJwtKey("HS256", { kid: "hs" }), k: Buffer.alloc(16).toString("base64url") };
    expect(problemsOf([short])).toEqual([
      'key 1 (kid "hs"): "k" must hold at least 32 bytes (base64url), got 16',
    ]);
    const es = generateJwtKey("ES256", { kid: "es" });
    const other = generateJwtKey("ES256");
    expect(problemsOf([{ ...es, d: other.d }])).toEqual([
      'key 1 (kid "es"): its private part does not match its public part',
    ]);
    expect(problemsOf([{ ...es, x: "AAAA" }])[0]).toMatch(
      /^key 1 \(kid "es"\): the key material does not load/,
    );
  });

  it("refuses use other than sig and unknown key_ops", () => {
    const key = generateJwtKey("ES256", { kid: "k" });
    expect(problemsOf([{ ...key, use: "enc" }])).toEqual(['key 1 (kid "k"): use must be "sig", got "enc"']);
    expect(problemsOf([{ ...key, key_ops: ["sign", "encrypt"] }])).toEqual([
      'key 1 (kid "k"): key_ops must be an array of "sign" and "verify"',
    ]);
  });

  it("refuses what is not a non-empty JSON array of objects, and never echoes key material", () => {
    expect(problemsOf("not json")[0]).toMatch(/^expected a JSON array of JWKs \(/);
    expect(problemsOf([])).toEqual(["expected a non-empty JSON array of JWKs"]);
    expect(problemsOf({ keys: [] })).toEqual(["expected a non-empty JSON array of JWKs"]);
    expect(problemsOf([42])).toEqual(["key 1: expected a JWK (a JSON object)"]);
    const key = generateJwtKey("HS256", { kid: "hs" });
    const problems = problemsOf([
      { ...key, k: "c2hvcnQ" },
      { ...key, kid: "x", alg: "nope" },
    ]);
    expect(problems).toHaveLength(2);
    expect(problems.join("\n")).not.toContain("c2hvcnQ");
  });
});
