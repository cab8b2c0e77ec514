import type { PortTraits } from "../../kernel/index.js";

/**
 * A counter shared by every instance (kept in Postgres): the hourly cap on emails sent
 * (`RATE_LIMIT_EMAIL_SENT`). Fixed windows of `windowMs` starting at multiples of it.
 */
export interface SendQuota {
  /**
   * Counts one send under `key` in the window containing `now` and resolves true, or resolves false
   * (counting nothing) when `limit` sends were already counted there. Atomic across instances.
   */
  take(key: string, limit: number, windowMs: number, now: Date): Promise<boolean>;
}

/** Taking from the quota is a write of its own (autocommit), outside any transaction. */
export const sendQuotaTraits: PortTraits<SendQuota> = { take: { commits: true } };
