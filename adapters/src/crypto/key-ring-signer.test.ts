import { createHmac } from "node:crypto";
import type { AccessTokenClaims } from "@authsvc/core/sessions";
import { fixedClock } from "@authsvc/core/testing";
import { decodeProtectedHeader, importJWK, jwtVerify, SignJWT } from "jose";
import { describe, expect, it } from "vitest";
import { signApiKey } from "./api-keys.js";
import { hs256Signer } from "./hs256-signer.js";
import { generateJwtKey } from "./jwt-key-generator.js";
import { JWT_KEY_ALGORITHMS, type JwtKeyRing, parseJwtKeys } from "./jwt-keys.js";
import { keyRingSigner, publicJwks } from "./key-ring-signer.js";

const SECRET = "super-secret-jwt-token-with-at-least-32-characters-long";
const clock = fixedClock(new Date("2026-01-01T00:00:00Z"));
const nowS = Math.floor(clock.now().getTime() / 1000);
const claims: AccessTokenClaims = {
  sub: "00000000-0000-4000-8000-000000000001",
  aud: "authenticated",
  exp: nowS + 3600,
  iat: nowS,
  email: "a@example.com",
  phone: "",
  app_metadata: { provider: "email", providers: ["email"] },
  user_metadata: {},
  role: "authenticated",
  aal: "aal1",
  amr: [{ method: "password", timestamp: nowS }],
  session_id: "00000000-0000-4000-8000-000000000002",
  is_anonymous: false,
};

function ringOf(keys: Record<string, unknown>[]): JwtKeyRing {
  const result = parseJwtKeys(JSON.stringify(keys));
  if (!result.ok) throw new Error(result.problems.join("; "));
  return result.ring;
}
const signerOf = (keys: Record<string, unknown>[]) => keyRingSigner(ringOf(keys), { secret: SECRET, clock });
const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
/** A token with any header, HMAC-SHA256-signed with `key` whatever the header says. */
function hmacForge(header: Record<string, unknown>, key: string | Buffer): string {
  const input = `${b64(header)}.${b64(claims)}`;
  return `${input}.${createHmac("sha256", key).update(input).digest("base64url")}`;
}

describe("keyRingSigner", () => {
  it.each(JWT_KEY_ALGORITHMS)(
    "signs with the %s signing key, kid in the header, and verifies back",
    async (alg) => {
      const key = generateJwtKey(alg, { kid: `kid-${alg}` });
      const signer = signerOf([key]);
      const token = await signer.sign(claims);
      expect(decodeProtectedHeader(token)).toEqual({ alg, kid: `kid-${alg}`, typ: "JWT" });
      expect(await signer.verify(token)).toEqual(claims);
    },
  );

  it("signs tokens that verify against the published public key alone (what clients do)", async () => {
    const ring = ringOf([generateJwtKey("ES256", { kid: "es" })]);
    const token = await keyRingSigner(ring, { secret: SECRET, clock }).sign(claims);
    const [jwk] = publicJwks(ring).keys;
    const { payload } = await jwtVerify(token, await importJWK(jwk as never, "ES256"), {
      currentDate: clock.now(),
    });
    expect(payload).toEqual(claims);
  });

  it("verifies a token of any key of the ring by its kid: rotation keeps earlier tokens valid", async () => {
    const previous = generateJwtKey("RS256", { kid: "previous" });
    const current = generateJwtKey("ES256", { kid: "current" });
    const before = await signerOf([previous]).sign(claims);
    const rotated = signerOf([{ ...previous, key_ops: ["verify"] }, current]);
    expect(await rotated.verify(before)).toEqual(claims);
    expect(decodeProtectedHeader(await rotated.sign(claims)).kid).toBe("current");
    // Once the previous key is removed, its tokens no longer verify.
    expect(await signerOf([current]).verify(before)).toBeNull();
  });

  it("never lets the header's alg choose the algorithm (key confusion, none)", async () => {
    const rsa = generateJwtKey("RS256", { kid: "rsa" });
    const signer = signerOf([rsa]);
    const ring = ringOf([rsa]);
    const pem = ring.byKid.get("rsa")?.verifyingKey.export({ type: "spki", format: "pem" }) ?? "";
    // HS256 keyed with the public key, naming the RSA key's kid: refused.
    expect(await signer.verify(hmacForge({ alg: "HS256", kid: "rsa", typ: "JWT" }, pem))).toBeNull();
    expect(await signer.verify(`${b64({ alg: "none", kid: "rsa" })}.${b64(claims)}.`)).toBeNull();
    // An RS512 signature by the same private key, for an RS256 key: refused.
    const privateKey = ring.byKid.get("rsa")?.signingKey;
    if (privateKey === undefined) throw new Error("no private key");
    const rs512 = await new SignJWT({ ...claims })
      .setProtectedHeader({ alg: "RS512", kid: "rsa" })
      .sign(privateKey);
    expect(await signer.verify(rs512)).toBeNull();
  });

  it("rejects tokens of another key with the same kid, expired tokens and malformed input", async () => {
    const signer = signerOf([generateJwtKey("ES256", { kid: "k" })]);
    const impostor = await signerOf([generateJwtKey("ES256", { kid: "k" })]).sign(claims);
    expect(await signer.verify(impostor)).toBeNull();
    const expired = await signer.sign({ ...claims, exp: nowS - 1 });
    expect(await signer.verify(expired)).toBeNull();
    for (const bad of ["", "abc", "a.b.c", `${b64({ alg: "ES256", kid: "k" })}.x.y`]) {
      expect(await signer.verify(bad)).toBeNull();
    }
  });

  it("falls back to JWT_SECRET for HS256 tokens without a known kid only when the ring allows HS256", async () => {
    const legacy = await hs256Signer(SECRET, { clock }).sign(claims);
    const unknownKid = hmacForge({ alg: "HS256", kid: "nobody", typ: "JWT" }, SECRET);
    // Asymmetric keys only: the reference's default valid methods exclude HS256.
    const asymmetric = signerOf([generateJwtKey("ES256")]);
    expect(await asymmetric.verify(legacy)).toBeNull();
    expect(await asymmetric.verify(unknownKid)).toBeNull();
    // The secret listed as a verify-only oct key: tokens signed with it (API keys) keep working.
    const secretKey = {
      kty: "oct",
      kid: "legacy",
      alg: "HS256",
      key_ops: ["verify"],
      k: Buffer.from(SECRET).toString("base64url"),
    };
    const withSecret = signerOf([generateJwtKey("ES256"), secretKey]);
    expect(await withSecret.verify(legacy)).toEqual(claims);
    expect(await withSecret.verify(unknownKid)).toEqual(claims);
    expect(await withSecret.verify(hmacForge({ alg: "HS256", kid: "legacy", typ: "JWT" }, SECRET))).toEqual(
      claims,
    );
    // Another secret is still refused.
    expect(await withSecret.verify(hmacForge({ alg: "HS256", typ: "JWT" }, "x".repeat(40)))).toBeNull();
  });

  it("signs with an HS256 oct key of the ring and keeps it out of the JWKS", async () => {
    const ring = ringOf([
      generateJwtKey("HS256", { kid: "hs" }),
      generateJwtKey("EdDSA", { kid: "ed", signs: false }),
    ]);
    const token = await keyRingSigner(ring, { secret: SECRET, clock }).sign(claims);
    expect(decodeProtectedHeader(token)).toEqual({ alg: "HS256", kid: "hs", typ: "JWT" });
    expect(publicJwks(ring).keys.map((key) => key.kid)).toEqual(["ed"]);
    expect(JSON.stringify(publicJwks(ring))).not.toMatch(/"(k|d)"/);
  });

  it("signs the development API keys with the signing key, so they verify with any key set", async () => {
    const ring = ringOf([generateJwtKey("ES256", { kid: "es" })]);
    const key = await signApiKey(SECRET, "service_role", nowS, ring);
    expect(decodeProtectedHeader(key)).toEqual({ alg: "ES256", kid: "es", typ: "JWT" });
    expect(await keyRingSigner(ring, { secret: SECRET, clock }).verify(key)).toMatchObject({
      role: "service_role",
    });
    expect(decodeProtectedHeader(await signApiKey(SECRET, "anon", nowS))).toEqual({
      alg: "HS256",
      typ: "JWT",
    });
  });
});
