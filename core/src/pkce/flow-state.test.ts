import { describe, expect, it } from "vitest";
import { fakeSecretTokens } from "../testing/index.js";
import { parsePkceChallenge } from "./flow-state.js";
import { hexToBase64Url, verifierMatches } from "./verifier.js";

const CHALLENGE = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM";

describe("parsePkceChallenge", () => {
  it("reads neither as an implicit flow and both as a PKCE flow, the method in any case", () => {
    expect(parsePkceChallenge(undefined, undefined)).toEqual({ ok: true, value: null });
    expect(parsePkceChallenge(CHALLENGE, "S256")).toEqual({
      ok: true,
      value: { codeChallenge: CHALLENGE, method: "s256" },
    });
    expect(parsePkceChallenge(CHALLENGE, "plain")).toMatchObject({ ok: true, value: { method: "plain" } });
  });

  it.each([
    [CHALLENGE, undefined, "PKCE flow requires code_challenge_method and code_challenge"],
    [undefined, "s256", "PKCE flow requires code_challenge_method and code_challenge"],
    ["short", "s256", "code challenge has to be between 43 and 128 characters"],
    ["x".repeat(129), "s256", "code challenge has to be between 43 and 128 characters"],
    [
      `${"x".repeat(43)}/`,
      "s256",
      "code challenge can only contain alphanumeric characters, hyphens, periods, underscores and tildes",
    ],
    [CHALLENGE, "s512", "code challenge method not supported"],
  ])("refuses challenge %s with method %s", (challenge, method, message) => {
    expect(parsePkceChallenge(challenge, method)).toEqual({
      ok: false,
      error: expect.objectContaining({ code: "validation_failed", message }),
    });
  });
});

describe("verifierMatches", () => {
  it("encodes SHA-256 hex as unpadded base64url (RFC 7636 appendix B)", () => {
    // SHA-256 of the appendix's verifier "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk".
    const hex = "13d31e961a1ad8ec2f16b10c4c982e0876a878ad6df144566ee1894acb70f9c3";
    expect(hexToBase64Url(hex)).toBe(CHALLENGE);
    expect(hexToBase64Url("ff")).toBe("_w");
    expect(hexToBase64Url("fbff")).toBe("-_8");
  });

  it("checks s256 through the token hash and plain as the verifier itself", () => {
    const sha = { hash: () => "13d31e961a1ad8ec2f16b10c4c982e0876a878ad6df144566ee1894acb70f9c3" };
    expect(verifierMatches(sha, CHALLENGE, "s256", "any")).toBe(true);
    expect(verifierMatches(sha, `${CHALLENGE.slice(0, -1)}d`, "s256", "any")).toBe(false);
    const tokens = fakeSecretTokens();
    expect(verifierMatches(tokens, CHALLENGE, "plain", CHALLENGE)).toBe(true);
    expect(verifierMatches(tokens, CHALLENGE, "plain", `${CHALLENGE}x`)).toBe(false);
  });
});
