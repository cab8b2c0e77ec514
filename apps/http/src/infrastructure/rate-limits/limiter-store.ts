import {
  postgresLimiterStore,
  type RequestLimiterStore,
  redisLimiterStore,
  type Sql,
} from "@authsvc/adapters";
import type { Logger } from "pino";
import type { Config } from "../../config/types.js";

/** Store errors are logged at most this often: an outage must not flood the log, one line per request. */
const STORE_ERROR_LOG_INTERVAL_MS = 60_000;

/**
 * The store counting the per-IP request limits for all instances: Redis when `REDIS_URL` is set,
 * else the database. While it cannot be reached each instance counts alone (logged once a minute).
 */
export function requestLimiterStoreOf(config: Config, sql: Sql, logger: Logger): RequestLimiterStore {
  let lastLogged = Number.NEGATIVE_INFINITY;
  const onStoreError = (error: unknown) => {
    const now = Date.now();
    if (now - lastLogged < STORE_ERROR_LOG_INTERVAL_MS) return;
    lastLogged = now;
    logger.warn(
      { err: error instanceof Error ? error.message : String(error) },
      "request-limit store unreachable: this instance counts the per-IP limits alone until it answers",
    );
  };
  const redisUrl = config.rateLimit.redisUrl;
  return redisUrl
    ? redisLimiterStore(redisUrl, { namespace: config.db.namespace, onStoreError })
    : postgresLimiterStore(sql, { namespace: config.db.namespace, onStoreError });
}
