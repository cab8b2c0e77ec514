/** What a captcha provider said about one token. */
export interface CaptchaVerdict {
  /** The provider accepted the token. */
  readonly success: boolean;
  /** The provider's `error-codes` (e.g. `invalid-input-response`); empty on success. */
  readonly errorCodes: readonly string[];
}

/** One token to check, as the client sent it, and the address of the client that solved it. */
export interface CaptchaChallenge {
  /** The `captcha_token` of the request, trimmed, never empty. */
  readonly token: string;
  /** The client's IP address, passed on as `remoteip` when known. */
  readonly remoteIp?: string | undefined;
}

/**
 * A captcha provider's verification API (hCaptcha, Turnstile). One call per guarded request, made
 * outside any database transaction: a slow provider must not hold a pooled connection.
 */
export interface CaptchaVerifier {
  /**
   * Asks the provider whether `challenge.token` was solved. Resolves with its verdict, accepted or
   * refused; throws when the provider cannot be reached, does not answer within the configured
   * timeout, or answers something that is not a verdict — a fault, not the client's mistake.
   */
  verify(challenge: CaptchaChallenge): Promise<CaptchaVerdict>;
}
