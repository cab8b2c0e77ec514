/** Checks a wallet's signature of a sign-in message. */
export interface WalletSignatures {
  /**
   * Whether `signature` (`0x` and 65 bytes of hex: r, s, v) is an EIP-191 `personal_sign` of
   * `message` by the key of `address` (compared without regard to case). False for a malformed
   * signature; never throws.
   */
  ethereum(message: string, signature: string, address: string): Promise<boolean>;
  /**
   * Whether `signature` (64 bytes in base64, either alphabet, padded or not) is an Ed25519 signature
   * by the public key `address` (base58, 32 bytes) of `message`'s UTF-8 bytes, or of the off-chain
   * message envelope a Ledger signs for `domain`. False for a malformed signature or key; never throws.
   */
  solana(message: string, signature: string, address: string, domain: string): Promise<boolean>;
}
