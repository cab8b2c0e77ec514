import type { WalletSignatures } from "@authsvc/core";
import { type Hex, isHex, recoverMessageAddress } from "viem";

const SIGNATURE = /^0x[0-9a-fA-F]{130}$/;

/**
 * Wallet signatures checked with viem: Ethereum's EIP-191 `personal_sign` (keccak-256 of
 * "\x19Ethereum Signed Message:\n" + length + message), the signer recovered from the signature
 * and compared with the message's address. Like the reference, the `0x` prefix is required.
 */
export function walletSignatures(): WalletSignatures {
  return {
    async ethereum(message, signature, address) {
      if (!SIGNATURE.test(signature) || !isHex(signature)) return false;
      try {
        const signer = await recoverMessageAddress({ message, signature: signature as Hex });
        return signer.toLowerCase() === address.toLowerCase();
      } catch {
        return false;
      }
    },
  };
}
