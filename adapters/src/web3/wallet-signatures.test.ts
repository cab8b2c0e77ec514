import { parseSiweMessage } from "@authsvc/core/web3";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { createSiweMessage } from "viem/siwe";
import { describe, expect, it } from "vitest";
import { walletSignatures } from "./wallet-signatures.js";

const account = privateKeyToAccount(generatePrivateKey());
const other = privateKeyToAccount(generatePrivateKey());
const message = createSiweMessage({
  address: account.address,
  chainId: 1,
  domain: "app.example.com",
  nonce: "abcdef123456",
  uri: "https://app.example.com/login",
  version: "1",
  statement: "Sign in to the example app",
  issuedAt: new Date("2026-11-27T00:00:00Z"),
  expirationTime: new Date("2026-11-27T00:10:00Z"),
  resources: ["https://app.example.com/terms"],
});

describe("walletSignatures().ethereum", () => {
  const wallets = walletSignatures();

  it("accepts the message's own key's personal_sign, whatever the address's case", async () => {
    const signature = await account.signMessage({ message });
    expect(await wallets.ethereum(message, signature, account.address)).toBe(true);
    expect(await wallets.ethereum(message, signature, account.address.toLowerCase())).toBe(true);
  });

  it("refuses another key's signature, a signature of another message and malformed ones", async () => {
    const signature = await account.signMessage({ message });
    expect(await wallets.ethereum(message, await other.signMessage({ message }), account.address)).toBe(
      false,
    );
    expect(await wallets.ethereum(`${message}\n`, signature, account.address)).toBe(false);
    expect(await wallets.ethereum(message, signature.slice(2), account.address)).toBe(false);
    expect(await wallets.ethereum(message, `${signature.slice(0, -2)}zz`, account.address)).toBe(false);
    expect(await wallets.ethereum(message, "0x", account.address)).toBe(false);
    expect(await wallets.ethereum(message, `0x${"00".repeat(65)}`, account.address)).toBe(false);
  });
});

describe("parseSiweMessage on viem's EIP-4361 messages", () => {
  it("reads every field viem writes", () => {
    expect(parseSiweMessage(message)).toMatchObject({
      ok: true,
      value: {
        domain: "app.example.com",
        address: account.address,
        statement: "Sign in to the example app",
        uri: { scheme: "https", host: "app.example.com" },
        chainId: "1",
        nonce: "abcdef123456",
        issuedAt: new Date("2026-11-27T00:00:00Z"),
        expirationTime: new Date("2026-11-27T00:10:00Z"),
        resources: ["https://app.example.com/terms"],
      },
    });
  });
});
