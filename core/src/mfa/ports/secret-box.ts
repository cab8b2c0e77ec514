/**
 * Encrypts secrets kept at rest (TOTP secrets, texted codes), each bound to the id of the row that
 * holds it: a sealed value moved to another row does not open.
 */
export interface SecretBox {
  /** Encrypts `plaintext` for the row `rowId` with the current key. */
  seal(rowId: string, plaintext: string): string;
  /** Decrypts a value sealed for `rowId`; null when it does not open (wrong row, unknown key, tampered). */
  open(rowId: string, sealed: string): string | null;
  /** Whether `sealed` was sealed with the current key (else it is sealed again at its next use). */
  isCurrent(sealed: string): boolean;
}
