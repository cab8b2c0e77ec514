import type { PortTraits } from "../../kernel/index.js";

/** Checks a wallet's signature of a sign-in message. */
export interface WalletSignatures {
  /**
   * Whether `signature` (`0x` and 65 bytes of hex: r, s, v) is an EIP-191 `personal_sign` of
   * `message` by the key of `address` (compared without regard to case). False for a malformed
   * signature; never throws.
   */
  ethereum(message: string, signature: string, address: string): Promise<boolean>;
}

/** Recovering a key is computation in this process, not a wait outside it. */
export const walletSignaturesTraits: PortTraits<WalletSignatures> = {};
