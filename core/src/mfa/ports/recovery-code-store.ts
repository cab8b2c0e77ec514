/** A recovery code as stored: only its hash, and when it was used. */
export interface StoredRecoveryCode {
  readonly id: string;
  /** Lowercase hex SHA-256 of the code in canonical form. */
  readonly codeHash: string;
}

/** The codes of recovery-code factors (`mfa_recovery_codes`); they go with their factor. */
export interface RecoveryCodeStore {
  /** Replaces the factor's codes with a new set (the old ones, used or not, are deleted). */
  replace(factorId: string, codes: readonly StoredRecoveryCode[], at: Date): Promise<void>;
  /** The factor's codes not used yet. */
  unused(factorId: string): Promise<readonly StoredRecoveryCode[]>;
  /**
   * Marks one code used at `at`; false when it was used already (two verifications with one code
   * raced: one statement, so only one of them wins).
   */
  consume(id: string, at: Date): Promise<boolean>;
  /** How many codes the factor's set has, and how many are not used yet. */
  count(factorId: string): Promise<{ total: number; remaining: number }>;
}
