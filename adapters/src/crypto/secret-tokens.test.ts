import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { secretTokens } from "./secret-tokens.js";

const TOKEN = /^[A-Za-z0-9_-]{24}$/;

describe("secretTokens", () => {
  const tokens = secretTokens("jwt-secret-a");

  it("generates distinct 24-character base64url tokens", () => {
    const generated = Array.from({ length: 1000 }, () => tokens.generate());
    expect(new Set(generated).size).toBe(1000);
    for (const token of generated) expect(token).toMatch(TOKEN);
  });

  it("hashes to lowercase hex SHA-256", () => {
    expect(tokens.hash("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    expect(tokens.hash(tokens.generate())).toMatch(/^[0-9a-f]{64}$/);
    expect(tokens.hash("abd")).not.toBe(tokens.hash("abc"));
  });

  it("derives a deterministic child with the shape of a generated token", () => {
    const parent = tokens.generate();
    const child = tokens.child(parent);
    expect(child).toMatch(TOKEN);
    expect(child).not.toBe(parent);
    expect(tokens.child(parent)).toBe(child);
    expect(secretTokens("jwt-secret-a").child(parent)).toBe(child);
  });

  it("derives different children for different parents and different keys", () => {
    const parent = tokens.generate();
    expect(tokens.child(tokens.generate())).not.toBe(tokens.child(parent));
    expect(secretTokens("jwt-secret-b").child(parent)).not.toBe(tokens.child(parent));
  });

  it("keys the HMAC with an HKDF subkey, not the secret itself", () => {
    const parent = "parent-token";
    const withRawKey = createHmac("sha256", "jwt-secret-a")
      .update(`refresh-token-child:${parent}`)
      .digest("base64url")
      .slice(0, 24);
    expect(tokens.child(parent)).not.toBe(withRawKey);
  });

  it("keeps deriving the same children across releases", () => {
    // Frozen vector: changing the derivation would hand different children to clients that retry
    // a refresh across a deploy.
    expect(tokens.child("parent-token")).toBe(FROZEN_CHILD);
  });

  it("binds a flow to a value only the key gives, distinct from the refresh tokens' children", () => {
    const flow = "6f1c2a8e-3b9d-4c55-9a0e-1d2f3a4b5c6d";
    const binding = tokens.flowBinding(flow);
    expect(binding).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(secretTokens("jwt-secret-a").flowBinding(flow)).toBe(binding);
    expect(secretTokens("jwt-secret-b").flowBinding(flow)).not.toBe(binding);
    expect(tokens.flowBinding("6f1c2a8e-3b9d-4c55-9a0e-1d2f3a4b5c6e")).not.toBe(binding);
    expect(tokens.child(flow)).not.toBe(binding.slice(0, 24));
  });

  it("refuses an empty key up front", () => {
    expect(() => secretTokens("")).toThrow(/must not be empty/);
  });
});

// Computed independently: HKDF-SHA256(ikm = key, salt = "", info), then HMAC-SHA256, base64url, 24 chars.
const FROZEN_CHILD = "kX4SzJ9NWCEcxme6XBgJUgmz";
