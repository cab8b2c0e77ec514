import type { PortTraits } from "../../kernel/index.js";

/**
 * Password hashing. New hashes are argon2id (m=19456 KiB, t=2, p=1); imported bcrypt and argon2
 * hashes verify too. Every method is asynchronous so the event loop never blocks on a hash.
 */
export interface PasswordHasher {
  /** An argon2id PHC string of `password` with a fresh salt. */
  hash(password: string): Promise<string>;
  /**
   * False on mismatch and on a hash it cannot read or will not compute (beyond the adapter's cost
   * limits), the latter after a dummy verification's work; never throws for a bad hash.
   */
  verify(hash: string, password: string): Promise<boolean>;
  /** True when `hash` is not argon2id with the current parameters (rehash after a successful sign-in). */
  needsRehash(hash: string): boolean;
  /** Spends the time of one verification, for unknown users: wrong password and no user look alike. */
  verifyDummy(password: string): Promise<void>;
  /** Whether `hash` is an importable hash (bcrypt $2a/$2b/$2y, argon2i/argon2id PHC) within the cost limits. */
  isSupportedHash(hash: string): boolean;
}

/** Hashes and verifications wait on the hash workers, not on the caller's thread. */
export const passwordHasherTraits: PortTraits<PasswordHasher> = {
  hash: { waitsOutside: true },
  verify: { waitsOutside: true },
  verifyDummy: { waitsOutside: true },
};
