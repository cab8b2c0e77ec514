import { describe, expect, it } from "vitest";
import { messageTimeProblem } from "./sign-in-message.js";
import { parseSiweMessage } from "./siwe-message.js";

const ADDRESS = "0xAb5801a7D398351b8bE11C439e05C5B3259aeC9B";
const message = (
  overrides: Partial<Record<string, string | null>> = {},
  statement: string | null = "Sign in",
) => {
  const fields: Record<string, string | null> = {
    URI: "https://app.example.com/login",
    Version: "1",
    "Chain ID": "1",
    Nonce: "abcdef123456",
    "Issued At": "2026-11-27T00:00:00.000Z",
    ...overrides,
  };
  const lines = [`app.example.com wants you to sign in with your Ethereum account:`, ADDRESS, ""];
  if (statement !== null) lines.push(statement, "");
  for (const [key, value] of Object.entries(fields)) if (value !== null) lines.push(`${key}: ${value}`);
  return lines.join("\n");
};

describe("parseSiweMessage", () => {
  it("reads an EIP-4361 message as viem and auth-js write it", () => {
    const parsed = parseSiweMessage(
      `${message({ "Expiration Time": "2026-11-27T00:10:00Z" })}\nResources:\n- https://app.example.com/terms`,
    );
    expect(parsed).toMatchObject({
      ok: true,
      value: {
        domain: "app.example.com",
        address: ADDRESS,
        statement: "Sign in",
        uri: { scheme: "https", host: "app.example.com" },
        chainId: "1",
        nonce: "abcdef123456",
        issuedAt: new Date("2026-11-27T00:00:00Z"),
        expirationTime: new Date("2026-11-27T00:10:00Z"),
        notBefore: null,
        resources: ["https://app.example.com/terms"],
      },
    });
    expect(parseSiweMessage(message({}, null))).toMatchObject({ ok: true, value: { statement: null } });
  });

  it.each([
    ["a short message", "a\nb", "siwe: message needs at least 6 lines"],
    [
      "a Solana header",
      message().replace("Ethereum account", "Solana account"),
      'siwe: message first line does not end in " wants you to sign in with your Ethereum account:"',
    ],
    ["a bad domain", message().replace("app.example.com wants", "app_example wants"), "siwe: domain"],
    [
      "a bad address",
      message().replace(ADDRESS, "0x1234"),
      "siwe: wallet address is not a valid Ethereum address",
    ],
    ["no Issued At", message({ "Issued At": null }), "siwe: Issued At is not specified"],
    [
      "a bad Issued At",
      message({ "Issued At": "yesterday" }),
      "siwe: Issued At is not a valid ISO8601 timestamp",
    ],
    ["no URI", message({ URI: null }), "siwe: URI is not specified"],
    ["a bad URI", message({ URI: "https://a b/" }), "siwe: URI is not valid"],
    ["version 2", message({ Version: "2" }), 'siwe: Version value is not supported, expected 1 got "2"'],
    ["a bad chain", message({ "Chain ID": "0x1" }), "siwe: Chain ID is not valid"],
    [
      "expiry before issue",
      message({ "Expiration Time": "2026-11-26T00:00:00Z" }),
      "siwe: Issued At is after Expiration Time",
    ],
    ["a line without a colon", `${message()}\ngarbage`, "siwe: encountered unparsable line at index"],
    [
      "a key given twice",
      `${message()}\nURI: https://evil.example.com/`,
      "siwe: URI is given more than once",
    ],
  ])("refuses %s", (_name, raw, reason) => {
    const parsed = parseSiweMessage(raw);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.error).toContain(reason);
  });
});

describe("messageTimeProblem", () => {
  const parsed = (overrides: Partial<Record<string, string | null>>) => {
    const result = parseSiweMessage(message(overrides));
    if (!result.ok) throw new Error(result.error);
    return result.value;
  };
  const TEN_MINUTES = 600_000;
  const at = (iso: string) => new Date(iso);

  it("accepts a message within its window, and refuses it before Not Before, at expiry and too old or new", () => {
    const m = parsed({ "Not Before": "2026-11-27T00:01:00Z", "Expiration Time": "2026-11-27T00:05:00Z" });
    expect(messageTimeProblem(m, at("2026-11-27T00:02:00Z"), TEN_MINUTES)).toBeNull();
    expect(messageTimeProblem(m, at("2026-11-27T00:00:30Z"), TEN_MINUTES)).toBe("not-yet-valid");
    expect(messageTimeProblem(m, at("2026-11-27T00:05:00Z"), TEN_MINUTES)).toBe("expired");
    const open = parsed({});
    expect(messageTimeProblem(open, at("2026-11-27T00:10:01Z"), TEN_MINUTES)).toBe("issued-too-long-ago");
    expect(messageTimeProblem(open, at("2026-11-26T23:49:59Z"), TEN_MINUTES)).toBe("issued-in-the-future");
  });
});
