import { Secret, TOTP } from "otpauth";
import { describe, expect, it } from "vitest";
import { aesGcmSecretBox, keyDerivedFromJwtSecret } from "./secret-box.js";
import { otpauthTotp } from "./totp.js";

const ROW = "7b5a2c7e-1f5e-4a0b-9a53-3f3c1d2e4b5a";
const key = (id: string, byte: number) => ({ id, key: Buffer.alloc(32, byte) });

describe("aesGcmSecretBox", () => {
  it("seals in the reference's JSON format and opens only on the same row", () => {
    const box = aesGcmSecretBox(key("k1", 1));
    const sealed = box.seal(ROW, "JBSWY3DPEHPK3PXP");
    expect(JSON.parse(sealed)).toMatchObject({ key_id: "k1", alg: "aes-gcm-hkdf" });
    expect(sealed).not.toContain("JBSWY3DPEHPK3PXP");
    expect(box.open(ROW, sealed)).toBe("JBSWY3DPEHPK3PXP");
    expect(box.open("8b5a2c7e-1f5e-4a0b-9a53-3f3c1d2e4b5a", sealed)).toBeNull();
    expect(box.open(ROW, "JBSWY3DPEHPK3PXP")).toBeNull();
    const tampered = JSON.parse(sealed);
    tampered.data = Buffer.from("x".repeat(32)).toString("base64");
    expect(box.open(ROW, JSON.stringify(tampered))).toBeNull();
  });

  it("opens a value sealed by GoTrue (HKDF-SHA256 per row id, AES-256-GCM), and old keys after rotation", () => {
    // Produced by an independent implementation of GoTrue's crypto.NewEncryptedString (Python's
    // `cryptography`: HKDF(SHA256, salt=None, info=row id) then AESGCM), key bytes 0..31.
    const gotrue =
      '{"key_id": "gotrue", "alg": "aes-gcm-hkdf", "data": "ACrDgsCTh2BRCbqO5z1d/GbWg3CPw604Kkw6VIO6i/4=", "nonce": "AAECAwQFBgcICQoL"}';
    const reference = {
      id: "gotrue",
      key: Buffer.from("AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8", "base64url"),
    };
    const rotated = aesGcmSecretBox(key("k2", 2), [reference]);
    expect(rotated.open(ROW, gotrue)).toBe("JBSWY3DPEHPK3PXP");
    expect(rotated.isCurrent(gotrue)).toBe(false);
    expect(rotated.isCurrent(rotated.seal(ROW, "x"))).toBe(true);
    expect(JSON.parse(rotated.seal(ROW, "x")).key_id).toBe("k2");
    expect(aesGcmSecretBox(key("k2", 2)).open(ROW, gotrue)).toBeNull();
  });

  it("derives a stable key from the JWT secret, distinct per secret", () => {
    const a = keyDerivedFromJwtSecret("secret-a-of-at-least-32-characters!!");
    expect(a).toEqual(keyDerivedFromJwtSecret("secret-a-of-at-least-32-characters!!"));
    expect(a.key.length).toBe(32);
    expect(a.key).not.toEqual(keyDerivedFromJwtSecret("secret-b-of-at-least-32-characters!!").key);
  });
});

describe("otpauthTotp", () => {
  it("enrols a 160-bit base32 secret with its otpauth URI and an SVG QR code", async () => {
    const enrolment = await otpauthTotp().enrol({ issuer: "example.com", accountName: "alice@example.com" });
    expect(enrolment.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(enrolment.uri).toMatch(/^otpauth:\/\/totp\/example\.com:alice%40example\.com\?/);
    expect(enrolment.uri).toContain(`secret=${enrolment.secret}`);
    expect(enrolment.qrCode.startsWith("<svg")).toBe(true);
  });

  it("still draws a QR code for the longest issuer and address (at a lower error correction level)", async () => {
    // 42 × "é" is 252 characters URL-encoded, the most core lets through.
    const enrolment = await otpauthTotp().enrol({
      issuer: "é".repeat(42),
      accountName: `${"é".repeat(60)}@example.com`,
    });
    expect(enrolment.qrCode.startsWith("<svg")).toBe(true);
    await expect(otpauthTotp().enrol({ issuer: "x", accountName: "é".repeat(1000) })).rejects.toMatchObject({
      code: "validation_failed",
    });
  });

  it("accepts the RFC 6238 code of the current step and one step either side only, answering its step", () => {
    const totp = otpauthTotp();
    // RFC 6238 appendix B: SHA-1 secret "12345678901234567890", T = 59 s → 94287082 (8 digits; 6: 287082).
    const secret = new Secret({ buffer: new TextEncoder().encode("12345678901234567890").buffer }).base32;
    expect(totp.match(secret, "287082", new Date(59_000))).toBe(1);
    const at = new Date(1_800_000_000_000);
    const step = 60_000_000; // 1_800_000_000 s / 30 s
    const codeAt = (ms: number) =>
      new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 }).generate({ timestamp: ms });
    expect(totp.match(secret, codeAt(at.getTime()), at)).toBe(step);
    expect(totp.match(secret, codeAt(at.getTime() - 30_000), at)).toBe(step - 1);
    expect(totp.match(secret, codeAt(at.getTime() + 30_000), at)).toBe(step + 1);
    expect(totp.match(secret, codeAt(at.getTime() - 60_000), at)).toBeNull();
    expect(totp.match(secret, "12345", at)).toBeNull();
    expect(totp.match("not base32 !", "123456", at)).toBeNull();
  });
});
