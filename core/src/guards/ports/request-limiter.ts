/**
 * A per-client request budget shared by every instance of the server (one limiter per limited
 * route family): the counts live in a store all instances reach, so N instances allow the limit
 * once, not N times.
 */
export interface RequestLimiter {
  /**
   * Spends one request of `clientKey`'s budget. Resolves true when the request is within the limit
   * and false when it is over. Never rejects for a store fault: an implementation whose store is
   * unreachable decides some other documented way (the adapters count in the process meanwhile).
   */
  take(clientKey: string): Promise<boolean>;
}
