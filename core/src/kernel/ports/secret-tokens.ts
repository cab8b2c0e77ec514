/**
 * Opaque secrets handed to clients (refresh tokens) and their at-rest form.
 *
 * Only `hash(token)` is ever stored. `child(parent)` derives the token that replaces `parent` on
 * rotation from a server-held key: the same parent always yields the same child, which is how a
 * client that lost the answer to a refresh can be given the very same child again (reuse interval)
 * although the server never stored that child in the clear.
 */
export interface SecretTokens {
  /** A new token with at least 128 bits from a CSPRNG. */
  generate(): string;
  /** Lowercase hex SHA-256 of the token: the only form that is stored. */
  hash(token: string): string;
  /** The deterministic, unguessable successor of `parent` (keyed HMAC). */
  child(parent: string): string;
  /**
   * The value a browser holds to prove it started the external sign-in whose OAuth `state` is
   * `flowId`: a keyed HMAC of it (a key of its own, never the refresh tokens'), unguessable without
   * the server's key and the same on every instance, so nothing about it needs storing.
   */
  flowBinding(flowId: string): string;
}
