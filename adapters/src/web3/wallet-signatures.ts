import type { WalletSignatures } from "@authsvc/core/web3";
import type { Hex } from "viem";
import { ledgerOffchainMessage } from "./ledger-offchain-message.js";

const SIGNATURE = /^0x[0-9a-fA-F]{130}$/;
const encoder = new TextEncoder();

/**
 * viem, noble's Ed25519 and scure's base encodings, imported at the first use (or at start, `eager`):
 * viem alone is some 1,500 modules and several megabytes of heap that a server without Web3 sign-in
 * should not carry.
 */
const loadLibraries = async () => {
  const [viem, { ed25519 }, { base58, base64urlnopad }] = await Promise.all([
    import("viem"),
    import("@noble/curves/ed25519"),
    import("@scure/base"),
  ]);
  return {
    isHex: viem.isHex,
    recoverMessageAddress: viem.recoverMessageAddress,
    ed25519,
    base58,
    base64urlnopad,
  };
};
type Libraries = Awaited<ReturnType<typeof loadLibraries>>;
let libraries: Promise<Libraries> | undefined;
const librariesOnce = () => {
  libraries ??= loadLibraries();
  return libraries;
};

/** 64 bytes from base64 in either alphabet, padded or not; null for anything else (non-zero padding bits included). */
function signatureBytes({ base64urlnopad }: Libraries, signature: string): Uint8Array | null {
  try {
    const bytes = base64urlnopad.decode(
      signature
        .replace(/={0,2}$/, "")
        .replace(/\+/g, "-")
        .replace(/\//g, "_"),
    );
    return bytes.length === 64 ? bytes : null;
  } catch {
    return null;
  }
}

/** A 32-byte Ed25519 public key from base58; null for anything else. */
function publicKey({ base58 }: Libraries, address: string): Uint8Array | null {
  try {
    const bytes = base58.decode(address);
    return bytes.length === 32 ? bytes : null;
  } catch {
    return null;
  }
}

/**
 * Wallet signatures checked with viem and noble. Ethereum: EIP-191 `personal_sign` (keccak-256 of
 * "\x19Ethereum Signed Message:\n" + length + message), the signer recovered from the signature and
 * compared with the message's address; like the reference, the `0x` prefix is required. Solana:
 * Ed25519 over the message's bytes, or (as the reference, for Ledger wallets) over its off-chain
 * envelope; verified as RFC 8032 (not ZIP-215's relaxed rules), and S must be below the group order.
 */
export function walletSignatures({ eager = false }: { eager?: boolean } = {}): WalletSignatures {
  // Loaded now for a server with Web3 sign-in on, so its first request does not wait for the import;
  // a failure here surfaces (again) at that first use.
  if (eager) librariesOnce().catch(() => {});
  return {
    async ethereum(message, signature, address) {
      if (!SIGNATURE.test(signature)) return false;
      const { isHex, recoverMessageAddress } = await librariesOnce();
      if (!isHex(signature)) return false;
      try {
        const signer = await recoverMessageAddress({ message, signature: signature as Hex });
        return signer.toLowerCase() === address.toLowerCase();
      } catch {
        return false;
      }
    },
    async solana(message, signature, address, domain) {
      const libs = await librariesOnce();
      const { ed25519 } = libs;
      const key = publicKey(libs, address);
      const bytes = signatureBytes(libs, signature);
      if (key === null || bytes === null) return false;
      const raw = encoder.encode(message);
      try {
        if (ed25519.verify(bytes, raw, key, { zip215: false })) return true;
        const envelope = ledgerOffchainMessage(raw, key, domain);
        return envelope !== null && ed25519.verify(bytes, envelope, key, { zip215: false });
      } catch {
        return false;
      }
    },
  };
}
