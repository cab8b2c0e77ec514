/** Identifiers and codes from a CSPRNG. */
export interface Random {
  /** A random (v4) UUID. */
  uuid(): string;
  /**
   * `length` uniformly random decimal digits (a one-time code): every digit is drawn on its own, so
   * leading zeros are as likely as any other digit and every code of that length is equally likely.
   */
  digits(length: number): string;
  /**
   * `length` characters each drawn uniformly and on its own from `alphabet` (a recovery code): every
   * string of that length over the alphabet is equally likely.
   */
  characters(length: number, alphabet: string): string;
}
