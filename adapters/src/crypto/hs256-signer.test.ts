import { createHmac } from "node:crypto";
import type { AccessTokenClaims } from "@authsvc/core/sessions";
import { fixedClock } from "@authsvc/core/testing";
import { decodeProtectedHeader, generateKeyPair, SignJWT } from "jose";
import { describe, expect, it } from "vitest";
import { hs256Signer } from "./hs256-signer.js";

const SECRET = "super-secret-jwt-token-with-at-least-32-characters-long";
const clock = fixedClock(new Date("2026-01-01T00:00:00Z"));
const nowS = Math.floor(clock.now().getTime() / 1000);
const signer = hs256Signer(SECRET, { clock });

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

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
const key = new TextEncoder().encode(SECRET);

/** A token with an arbitrary header, HMAC-SHA256-signed with our secret whatever the header says. */
function forge(header: Record<string, unknown>, payload: Record<string, unknown>): string {
  const input = `${b64(header)}.${b64(payload)}`;
  return `${input}.${createHmac("sha256", SECRET).update(input).digest("base64url")}`;
}

describe("hs256Signer", () => {
  it("signs with header {alg: HS256, typ: JWT} and verifies back to the claims", async () => {
    const token = await signer.sign(claims);
    expect(decodeProtectedHeader(token)).toEqual({ alg: "HS256", typ: "JWT" });
    expect(await signer.verify(token)).toEqual(claims);
  });

  it("keeps GoTrue's claim order in the payload", async () => {
    const token = await signer.sign(claims);
    const payload = JSON.parse(Buffer.from(token.split(".")[1] ?? "", "base64url").toString());
    expect(Object.keys(payload)).toEqual(Object.keys(claims));
  });

  it("accepts a hand-made HS256 token (interoperability)", async () => {
    expect(await signer.verify(forge({ alg: "HS256", typ: "JWT" }, { ...claims }))).toEqual(claims);
  });

  it("rejects alg none", async () => {
    const unsigned = `${b64({ alg: "none", typ: "JWT" })}.${b64(claims)}.`;
    expect(await signer.verify(unsigned)).toBeNull();
    expect(await signer.verify(forge({ alg: "none" }, { ...claims }))).toBeNull();
  });

  it("rejects HS512 tokens signed with the same secret", async () => {
    const hs512 = await new SignJWT({ ...claims }).setProtectedHeader({ alg: "HS512" }).sign(key);
    expect(await signer.verify(hs512)).toBeNull();
  });

  it("rejects RS256 tokens, genuine or HMAC-forged (key confusion)", async () => {
    const { privateKey } = await generateKeyPair("RS256");
    const rs256 = await new SignJWT({ ...claims }).setProtectedHeader({ alg: "RS256" }).sign(privateKey);
    expect(await signer.verify(rs256)).toBeNull();
    expect(await signer.verify(forge({ alg: "RS256", typ: "JWT" }, { ...claims }))).toBeNull();
  });

  it("rejects a tampered payload or signature and another secret", async () => {
    const token = await signer.sign(claims);
    const [header, , signature] = token.split(".");
    expect(
      await signer.verify(`${header}.${b64({ ...claims, role: "service_role" })}.${signature}`),
    ).toBeNull();
    const flipped = (signature ?? "").startsWith("A") ? "B" : "A";
    expect(
      await signer.verify(`${token.slice(0, token.lastIndexOf(".") + 1)}${flipped}${signature?.slice(1)}`),
    ).toBeNull();
    expect(await hs256Signer("another secret", { clock }).verify(token)).toBeNull();
  });

  it("rejects expired tokens and tokens without exp", async () => {
    const token = await signer.sign(claims);
    const later = fixedClock(new Date((claims.exp + 1) * 1000));
    expect(await hs256Signer(SECRET, { clock: later }).verify(token)).toBeNull();
    const { exp: _exp, ...noExp } = claims;
    expect(await signer.verify(forge({ alg: "HS256", typ: "JWT" }, noExp))).toBeNull();
  });

  it("uses the system clock by default", async () => {
    const system = hs256Signer(SECRET);
    const fresh = Math.floor(Date.now() / 1000);
    expect(await system.verify(await system.sign({ ...claims, iat: fresh, exp: fresh + 60 }))).not.toBeNull();
    expect(
      await system.verify(await system.sign({ ...claims, iat: fresh - 120, exp: fresh - 60 })),
    ).toBeNull();
  });

  it("returns null, never throws, for malformed input", async () => {
    for (const bad of ["", "abc", "a.b.c", "a.b", `${b64({ alg: "HS256" })}.notjson.sig`, "...."]) {
      expect(await signer.verify(bad)).toBeNull();
    }
  });

  it("refuses an empty secret up front", () => {
    expect(() => hs256Signer("")).toThrow(/must not be empty/);
  });
});
