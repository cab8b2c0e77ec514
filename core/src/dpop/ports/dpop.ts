/** A DPoP proof (RFC 9449 §4.2) whose signature verified with the public key its own header carries. */
export interface DecodedProof {
  /** The header's `typ`. */
  readonly typ: string;
  /** The header's `alg`: one of those the reader was asked to accept. */
  readonly alg: string;
  /** The RFC 7638 SHA-256 thumbprint of the header's `jwk`, base64url: what a bound token's `cnf.jkt` names. */
  readonly jkt: string;
  /** The proof's claims (`jti`, `htm`, `htu`, `iat`, maybe `ath` and `nonce`), unchecked. */
  readonly claims: Readonly<Record<string, unknown>>;
}

/** Reads DPoP proofs: the JWS part of RFC 9449 §4.3 (the claims are core's to check). */
export interface DpopProofReader {
  /**
   * The proof, when it is a compact JWS whose header carries `alg` among `algorithms` (asymmetric
   * only) and a public `jwk` (no private member), and whose signature that key verifies; else null.
   */
  read(proof: string, algorithms: readonly string[]): Promise<DecodedProof | null>;
  /** base64url(SHA-256(accessToken)): the `ath` a proof presenting `accessToken` carries (RFC 9449 §4.2). */
  accessTokenHash(accessToken: string): string;
}

/**
 * The server's DPoP nonces (RFC 9449 §8): values every instance computes alike (a keyed MAC of a time
 * window), so that one instance accepts what another handed out, with nothing shared but the key.
 */
export interface DpopNonces {
  /** The nonce to hand out at `now`. */
  current(now: Date): string;
  /** Whether `nonce` was handed out recently enough (this window or the one before) at `now`. */
  accepts(nonce: string, now: Date): boolean;
}

/**
 * The proofs already presented (RFC 9449 §11.1): single use across every instance, in the database,
 * each kept until it could no longer be accepted (then removed by the cleanup).
 */
export interface DpopProofLedger {
  /** Records the proof `key` until `expiresAt`; false when it is recorded already (a replay). */
  spend(key: string, expiresAt: Date): Promise<boolean>;
}
