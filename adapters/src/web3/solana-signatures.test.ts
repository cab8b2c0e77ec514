import { ed25519 } from "@noble/curves/ed25519";
import { base58, base64, base64url, base64urlnopad } from "@scure/base";
import { describe, expect, it } from "vitest";
import { ledgerOffchainMessage } from "./ledger-offchain-message.js";
import { walletSignatures } from "./wallet-signatures.js";

const secret = ed25519.utils.randomPrivateKey();
const key = ed25519.getPublicKey(secret);
const address = base58.encode(key);
const message = [
  "app.example.com wants you to sign in with your Solana account:",
  address,
  "",
  "Version: 1",
  "URI: https://app.example.com/login",
  "Issued At: 2026-11-27T00:00:00.000Z",
].join("\n");
const bytes = new TextEncoder().encode(message);
const signature = ed25519.sign(bytes, secret);

describe("walletSignatures().solana", () => {
  const wallets = walletSignatures();

  it("accepts the key's Ed25519 signature of the message in base64 of either alphabet, padded or not", async () => {
    for (const encoded of [
      base64urlnopad.encode(signature),
      base64url.encode(signature),
      base64.encode(signature),
      base64.encode(signature).replace(/=+$/, ""),
    ]) {
      expect(await wallets.solana(message, encoded, address, "app.example.com"), encoded).toBe(true);
    }
  });

  it("accepts a Ledger's signature of the off-chain envelope for the message's domain", async () => {
    const envelope = ledgerOffchainMessage(bytes, key, "app.example.com");
    if (envelope === null) throw new Error("no envelope");
    const ledger = base64urlnopad.encode(ed25519.sign(envelope, secret));
    expect(await wallets.solana(message, ledger, address, "app.example.com")).toBe(true);
    expect(await wallets.solana(message, ledger, address, "evil.example.com")).toBe(false);
  });

  it("refuses another key's signature, another message, a changed bit, a bad key and malformed text", async () => {
    const stranger = ed25519.utils.randomPrivateKey();
    const foreign = base64urlnopad.encode(ed25519.sign(bytes, stranger));
    expect(await wallets.solana(message, foreign, address, "app.example.com")).toBe(false);
    const good = base64urlnopad.encode(signature);
    expect(await wallets.solana(`${message}\n`, good, address, "app.example.com")).toBe(false);
    const flipped = Uint8Array.from(signature);
    flipped[10] = (flipped[10] ?? 0) ^ 1;
    expect(await wallets.solana(message, base64urlnopad.encode(flipped), address, "app.example.com")).toBe(
      false,
    );
    // A key that is not 32 bytes (the reference panics on it) and one that is not base58.
    expect(await wallets.solana(message, good, base58.encode(key.subarray(0, 31)), "app.example.com")).toBe(
      false,
    );
    expect(await wallets.solana(message, good, `0${address.slice(1)}`, "app.example.com")).toBe(false);
    expect(await wallets.solana(message, "A".repeat(86), address, "app.example.com")).toBe(false);
    expect(await wallets.solana(message, `${good}AA`, address, "app.example.com")).toBe(false);
    expect(await wallets.solana(message, "", address, "app.example.com")).toBe(false);
  });

  it("refuses an encoding with padding bits set and a malleated signature (S + L): one signature, one spelling", async () => {
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    // 86 characters carry 516 bits: the last 4 must be zero.
    const good = base64urlnopad.encode(signature);
    const dirty = `${good.slice(0, -1)}${alphabet[alphabet.indexOf(good.at(-1) ?? "A") | 1]}`;
    expect(dirty).not.toBe(good);
    expect(await wallets.solana(message, dirty, address, "app.example.com")).toBe(false);
    const L = 2n ** 252n + 27742317777372353535851937790883648493n;
    const high = signature.subarray(32).reduceRight((acc, b) => (acc << 8n) | BigInt(b), 0n) + L;
    const malleated = Uint8Array.from(signature);
    for (let i = 0; i < 32; i++) malleated[32 + i] = Number((high >> BigInt(8 * i)) & 0xffn);
    expect(await wallets.solana(message, base64urlnopad.encode(malleated), address, "app.example.com")).toBe(
      false,
    );
  });
});
