import { describe, expect, it } from "vitest";
import { hexToBase64Url, obfuscator } from "./obfuscate.js";

describe("hexToBase64Url", () => {
  it("spells bytes as unpadded base64url", () => {
    // SHA-256("abc")
    const hex = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
    expect(hexToBase64Url(hex)).toBe("ungWv48Bz-pBQUDeXa4iI7ADYaOWF3qctBD_YfIAFa0");
    expect(hexToBase64Url("")).toBe("");
    expect(hexToBase64Url("ff")).toBe("_w");
    expect(hexToBase64Url("fbff")).toBe("-_8");
  });

  it("leaves what is not hex alone", () => {
    expect(hexToBase64Url("h(x)")).toBe("h(x)");
  });
});

describe("obfuscator", () => {
  it("hashes the user id followed by the value; phones are cut to 15 characters", () => {
    const hide = obfuscator({ hash: (text) => `hash<${text}>` }, "u1");
    expect(hide.email("a@example.com")).toBe("hash<u1a@example.com>");
    expect(hide.email(null)).toBe("hash<u1>");
    expect(hide.phone("15551234567")).toBe("hash<u115551234");
    expect(hide.providerId("github", "42")).toBe("hash<u1github:42>");
  });
});
