import { createHmac } from "node:crypto";
import fc from "fast-check";
import { jwtVerify, SignJWT } from "jose";
import { describe, expect, it } from "vitest";
import { signHs256, verifyHs256 } from "./hs256-fast.js";

const key = new TextEncoder().encode("a-test-secret-of-at-least-32-characters!");
const NOW = 1_900_000_000;
const b64 = (value: unknown) =>
  Buffer.from(typeof value === "string" ? value : JSON.stringify(value)).toString("base64url");
const hmac = (input: string, k = key) => createHmac("sha256", k).update(input).digest("base64url");
const token = (header: unknown, payload: unknown, k = key) => {
  const input = `${b64(header)}.${b64(payload)}`;
  return `${input}.${hmac(input, k)}`;
};

/** jose's answer for the options hs256Signer uses: the claims, or null. */
async function jose(t: string): Promise<Record<string, unknown> | null> {
  try {
    const { payload } = await jwtVerify(t, key, {
      algorithms: ["HS256"],
      requiredClaims: ["exp"],
      currentDate: new Date(NOW * 1000),
    });
    return payload as Record<string, unknown>;
  } catch {
    return null;
  }
}

/** The fast path must either decline (undefined) or give jose's answer. */
async function agrees(t: string) {
  const fast = verifyHs256(t, key, NOW);
  if (fast === undefined) return;
  expect(fast === null ? null : fast.payload).toEqual(await jose(t));
}

const HS = { alg: "HS256", typ: "JWT" };

describe("verifyHs256 decides as jose does, or declines", () => {
  it("accepts a valid token and answers its claims", async () => {
    const t = token(HS, { sub: "u", aud: "authenticated", exp: NOW + 1, iat: NOW });
    expect(verifyHs256(t, key, NOW)).toEqual({
      payload: { sub: "u", aud: "authenticated", exp: NOW + 1, iat: NOW },
    });
    await agrees(t);
  });

  it.each([
    ["expired at this second", token(HS, { exp: NOW })],
    ["no exp", token(HS, { sub: "u" })],
    ["exp a string", token(HS, { exp: String(NOW + 10) })],
    ["nbf in the future", token(HS, { exp: NOW + 10, nbf: NOW + 1 })],
    ["iat a string", token(HS, { exp: NOW + 10, iat: "now" })],
    ["claims an array", token(HS, [1, 2])],
    ["claims not JSON", token(HS, "not json")],
    [
      "another secret",
      token(HS, { exp: NOW + 10 }, new TextEncoder().encode("another-secret-another-secret-another")),
    ],
    ["signature cut", token(HS, { exp: NOW + 10 }).slice(0, -4)],
  ])("refuses: %s", async (_name, t) => {
    expect(verifyHs256(t, key, NOW)).toBeNull();
    expect(await jose(t)).toBeNull();
  });

  it.each([
    ["alg none", `${b64({ alg: "none" })}.${b64({ exp: NOW + 10 })}.`],
    ["HS512 keyed with the secret", token({ alg: "HS512" }, { exp: NOW + 10 })],
    ["RS256 forged with the secret", token({ alg: "RS256" }, { exp: NOW + 10 })],
    ["a crit header", token({ alg: "HS256", crit: ["b64"], b64: false }, { exp: NOW + 10 })],
    ["four segments", `${token(HS, { exp: NOW + 10 })}.x`],
    ["empty", ""],
  ])("leaves %s to jose, which refuses it", async (_name, t) => {
    expect(verifyHs256(t, key, NOW)).toBeUndefined();
    expect(await jose(t)).toBeNull();
  });

  it("leaves a padded signature to jose (which accepts it)", async () => {
    const t = `${token(HS, { exp: NOW + 10 })}=`;
    expect(verifyHs256(t, key, NOW)).toBeUndefined();
    expect(await jose(t)).toEqual({ exp: NOW + 10 });
  });

  it("agrees with jose on arbitrary headers, claims and tampering", async () => {
    const numeric = fc.oneof(fc.integer({ min: NOW - 5, max: NOW + 5 }), fc.string(), fc.constant(undefined));
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          alg: fc.constantFrom("HS256", "HS384", "none", "RS256"),
          typ: fc.constantFrom("JWT", undefined),
        }),
        fc.record({ exp: numeric, nbf: numeric, iat: numeric, sub: fc.string() }),
        fc.nat({ max: 3 }),
        async (header, claims, tamper) => {
          const t = token(header, claims);
          const flipped = tamper === 0 ? t : t.slice(0, -tamper) + "A".repeat(tamper);
          await agrees(flipped);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe("signHs256", () => {
  it("gives the bytes jose's SignJWT gives, claims in their order", async () => {
    const claims = {
      sub: "u",
      aud: "authenticated",
      exp: NOW + 3600,
      iat: NOW,
      email: "a@example.com",
      is_anonymous: false,
    };
    const ours = signHs256(claims, key);
    expect(ours).toBe(await new SignJWT(claims).setProtectedHeader(HS).sign(key));
    expect(await jose(ours)).toEqual(claims);
  });
});
