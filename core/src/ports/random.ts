/** Identifiers from a CSPRNG. */
export interface Random {
  /** A random (v4) UUID. */
  uuid(): string;
}
