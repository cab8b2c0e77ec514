import { describe, expect, it } from "vitest";
import { parseSiwsMessage } from "./siws-message.js";

const ADDRESS = "8Ra1ZBm3PMxY2dvmsGjx8Jr7BwLZUR3b5tLnTiSTTVxn";
const message = (
  overrides: Partial<Record<string, string | null>> = {},
  statement: string | null = "Sign in",
) => {
  const fields: Record<string, string | null> = {
    Version: "1",
    URI: "https://app.example.com/login",
    "Issued At": "2026-11-27T00:00:00.000Z",
    "Chain ID": "solana:mainnet",
    ...overrides,
  };
  const lines = ["app.example.com wants you to sign in with your Solana account:", ADDRESS, ""];
  if (statement !== null) lines.push(statement, "");
  for (const [key, value] of Object.entries(fields)) if (value !== null) lines.push(`${key}: ${value}`);
  return lines.join("\n");
};

describe("parseSiwsMessage", () => {
  it("reads a Sign-In with Solana message as auth-js writes it", () => {
    expect(parseSiwsMessage(message({ "Expiration Time": "2026-11-27T00:10:00Z" }))).toMatchObject({
      ok: true,
      value: {
        domain: "app.example.com",
        address: ADDRESS,
        statement: "Sign in",
        uri: { scheme: "https", host: "app.example.com" },
        chainId: "solana:mainnet",
        issuedAt: new Date("2026-11-27T00:00:00Z"),
        expirationTime: new Date("2026-11-27T00:10:00Z"),
        notBefore: null,
      },
    });
    expect(parseSiwsMessage(message({ "Chain ID": null }, null))).toMatchObject({
      ok: true,
      value: { statement: null, chainId: null },
    });
    for (const network of ["devnet", "testnet", "localnet"]) {
      expect(parseSiwsMessage(message({ "Chain ID": `solana:${network}` })).ok).toBe(true);
    }
  });

  it.each([
    [
      "an Ethereum header",
      message().replace("Solana account", "Ethereum account"),
      'siws: message first line does not end in " wants you to sign in with your Solana account:"',
    ],
    ["a bad domain", message().replace("app.example.com wants", "app_example wants"), "siws: domain"],
    [
      "an Ethereum address",
      message().replace(ADDRESS, "0xAb5801a7D398351b8bE11C439e05C5B3259aeC9B"),
      "siws: wallet address is not in base58 format",
    ],
    // 0, O, I and l are not in base58's alphabet: no key is written with them.
    [
      "a letter outside base58",
      message().replace(ADDRESS, `0${ADDRESS.slice(1)}`),
      "siws: wallet address is not in base58 format",
    ],
    ["a short address", message().replace(ADDRESS, ADDRESS.slice(0, 31)), "siws: wallet address"],
    ["an Ethereum chain", message({ "Chain ID": "1" }), "siws: Chain ID is not valid"],
    ["an unknown cluster", message({ "Chain ID": "solana:fakenet" }), "siws: Chain ID is not valid"],
    ["no Issued At", message({ "Issued At": null }), "siws: Issued At is not specified"],
    ["no URI", message({ URI: null }), "siws: URI is not specified"],
    ["version 2", message({ Version: "2" }), 'siws: Version value is not supported, expected 1 got "2"'],
    [
      "expiry before issue",
      message({ "Expiration Time": "2026-11-26T00:00:00Z" }),
      "siws: Issued At is after Expiration Time",
    ],
    // auth-js writes its resources under "Resources" without the colon, which the reference refuses too.
    [
      "auth-js's Resources header",
      `${message()}\nResources\n- https://app.example.com/terms`,
      "siws: encountered unparsable line at index",
    ],
    [
      "a key given twice",
      `${message()}\nURI: https://evil.example.com/`,
      "siws: URI is given more than once",
    ],
  ])("refuses %s", (_name, raw, reason) => {
    const parsed = parseSiwsMessage(raw);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.error).toContain(reason);
  });
});
