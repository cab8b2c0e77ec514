/** A back-channel logout waiting to be POSTed (the outbox row a session's end recorded). */
export interface LogoutDelivery {
  readonly id: string;
  readonly clientId: string;
  readonly sessionId: string;
  readonly userId: string;
  /** The client's `backchannel_logout_uri` when the session ended. */
  readonly uri: string;
  /** Attempts made before this one. */
  readonly attempts: number;
  readonly createdAt: Date;
}

/**
 * The outbox of back-channel logouts. Rows are written by the store in the transaction that ends a
 * session; the sender claims, delivers and removes them outside any transaction.
 */
export interface LogoutDeliveries {
  /**
   * Claims the deliveries due at `now`, at most `limit` in all and `perClient` of each client, oldest
   * first, and moves each one's next attempt to `leaseUntil` and counts the attempt, in one statement
   * (rows another instance is claiming are skipped): no two senders hold one delivery, and a sender
   * that dies leaves it due again at `leaseUntil`.
   */
  claim(input: {
    readonly now: Date;
    readonly leaseUntil: Date;
    readonly limit: number;
    readonly perClient: number;
  }): Promise<LogoutDelivery[]>;
  /** Removes a delivery: delivered, or given up. */
  remove(id: string): Promise<void>;
  /** Makes a delivery due again at `at`. */
  retryAt(id: string, at: Date): Promise<void>;
}

/** POSTs a form body to a client's URI; resolves the status, rejects when no answer came. */
export type LogoutPoster = (uri: string, form: string) => Promise<number>;
