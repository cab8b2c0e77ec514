/** The purposes of one-time tokens (the reference's `one_time_token_type`). */
export type OneTimeTokenType =
  | "confirmation_token"
  | "reauthentication_token"
  | "recovery_token"
  | "email_change_token_new"
  | "email_change_token_current"
  | "phone_change_token";

/**
 * A pending one-time token. Nothing secret is stored in the clear: `tokenHash` is the SHA-256 of the
 * link token (the `token_hash` a link carries), `otpHash` the SHA-256 of `relatesTo + code` (the code
 * a user types). Both are accepted; either use consumes the token.
 */
export interface OneTimeToken {
  readonly id: string;
  readonly userId: string;
  readonly type: OneTimeTokenType;
  readonly tokenHash: string;
  readonly otpHash: string;
  /** The lowercased email or the phone digits the token was sent to. */
  readonly relatesTo: string;
  readonly createdAt: Date;
}

/**
 * One-time tokens: at most one live token per user and type; single use, atomically — of two
 * concurrent consumers of one token exactly one receives it, the other null.
 */
export interface OneTimeTokenStore {
  /** Stores `token`, replacing the user's previous token of the same type. */
  put(token: OneTimeToken): Promise<void>;
  /** Removes and returns the token whose link hash is `tokenHash` and whose type is one of `types`. */
  consumeByTokenHash(tokenHash: string, types: readonly OneTimeTokenType[]): Promise<OneTimeToken | null>;
  /** Removes and returns the token sent to `relatesTo` whose code hash is `otpHash`, of one of `types`. */
  consumeByOtp(
    relatesTo: string,
    otpHash: string,
    types: readonly OneTimeTokenType[],
  ): Promise<OneTimeToken | null>;
  /**
   * Counts one wrong code against every live token sent to `relatesTo` of one of `types`, and deletes
   * those that reach `maxAttempts` wrong codes: guessing a code is bounded per token, not per request.
   */
  recordFailedAttempt(
    relatesTo: string,
    types: readonly OneTimeTokenType[],
    maxAttempts: number,
  ): Promise<void>;
  /** The user's live token of `type`, if any (nothing is consumed). */
  find(userId: string, type: OneTimeTokenType): Promise<OneTimeToken | null>;
  /** Deletes the user's tokens (of the given types, or all). */
  deleteForUser(userId: string, types?: readonly OneTimeTokenType[]): Promise<void>;
}
