import type { Sql } from "@authsvc/adapters";
import type { Hono } from "hono";
import type { Logger } from "pino";
import type { Config } from "../config/types.js";
import { scheduledCleanup } from "../infrastructure/cleanup/cleaner.js";
import { openDatabase } from "../infrastructure/database/database.js";
import { databaseReadiness } from "../infrastructure/database/readiness.js";
import { warnIfNotVacuumed } from "../infrastructure/database/vacuum-check.js";
import { announcingCreatedUsers, checkHookTargets } from "../infrastructure/hooks/dispatcher.js";
import { jwksOf } from "../infrastructure/jwt/crypto.js";
import { DELIVERY_DRAIN_MS, deliveriesOf } from "../infrastructure/mail/deliveries.js";
import { mailDeliveryWarning, undeliverableMailFeatures } from "../infrastructure/mail/mail-delivery.js";
import { openapiSettings } from "../infrastructure/openapi/section.js";
import { requestLimiterStoreOf } from "../infrastructure/rate-limits/limiter-store.js";
import { captchaVerifierOf } from "../infrastructure/security/captcha.js";
import { settingsOf } from "../infrastructure/server/settings-view.js";
import { startTelemetry } from "../infrastructure/telemetry/start.js";
import { backchannelSender } from "../modules/oauth-logout/backchannel-sender.js";
import { createApp } from "./app.js";
import { authDepsOf } from "./auth-deps.js";
import { MODULES } from "./modules.js";
import { readVersion } from "./version.js";

/** The wired server: its app and everything that must be closed on shutdown, in order. */
export interface Composition {
  readonly app: Hono;
  readonly sql: Sql;
  /**
   * Waits (bounded) for the mail already accepted to be delivered, ends the pool, then stops the
   * embedded database (whose shutdown flushes it to disk).
   */
  close(): Promise<void>;
}

/** Builds the running application from a valid configuration. */
export async function compose(config: Config, logger: Logger): Promise<Composition> {
  const { sql, embedded, openPool } = await openDatabase(config, logger);
  const deliveries = deliveriesOf(logger);
  const limits = requestLimiterStoreOf(config, sql, logger);
  if (!(await limits.ready()))
    logger.warn({ store: limits.kind }, "request-limit store not answering at start");
  const version = readVersion();
  const telemetry = await startTelemetry({ config, logger, version, dbPoolMax: sql.options.max }).catch(
    async (error: unknown) => {
      await limits.close();
      await sql.end({ timeout: 5 });
      await embedded?.stop();
      throw error;
    },
  );
  await checkHookTargets(config, sql, logger);
  // The embedded database is PGlite, which has no autovacuum to speak of.
  if (config.cleanup.enabled && !embedded) await warnIfNotVacuumed(sql, logger);
  const cleanup = scheduledCleanup(config, openPool, logger);
  telemetry?.observeCleanup(() => cleanup.affectedRows);
  const auth = authDepsOf(config, sql, logger, deliveries);
  const mailWarning = mailDeliveryWarning(config);
  if (mailWarning) logger.warn({ mail_features: undeliverableMailFeatures(config) }, mailWarning);
  const app = createApp({
    config,
    logger,
    version,
    settings: settingsOf(config, MODULES),
    jwks: jwksOf(config),
    // Around the observed store and hooks: the after-user-created runs and their failures are counted.
    auth: announcingCreatedUsers(telemetry ? telemetry.observe(auth) : auth),
    requestIdHeader: config.api.requestIdHeader,
    corsAllowedHeaders: config.api.corsAllowedHeaders,
    maxRequestDurationMs: config.api.maxRequestDurationMs,
    bodyTimeoutMs: config.api.bodyTimeoutMs,
    trustedProxyHops: config.api.trustedProxyHops,
    trustedProxies: config.api.trustedProxies,
    messageConcurrency: config.api.messageConcurrency,
    rateLimit: {
      ...config.rateLimit,
      limiter: limits.limiter,
      mfaPer5Min: config.mfa.rateLimitPerMinute * 5,
      passkeyPer5Min: config.passkeys.rateLimitPer5Min,
    },
    captcha: captchaVerifierOf(config),
    basePaths: config.api.basePaths,
    readiness: [databaseReadiness(sql)],
    readinessWarnings: mailWarning ? { mail: mailWarning } : {},
    telemetry: telemetry?.middleware,
    ...openapiSettings(config),
  }) as unknown as Hono;
  cleanup.start();
  // Back-channel logouts recorded by the transactions that ended sessions, delivered after them.
  const logouts = backchannelSender(config, sql, logger);
  logouts.start();
  return {
    app,
    sql,
    async close() {
      await cleanup.stop();
      await logouts.stop();
      // Deliveries use the pool (a failed one removes its code), so they go before it.
      const undelivered = await deliveries.drain(DELIVERY_DRAIN_MS);
      if (undelivered > 0) logger.error({ undelivered }, "stopped with messages not delivered");
      await limits.close();
      // The pool first: the embedded server must not vanish under queries still in flight.
      await sql.end({ timeout: 5 });
      await embedded?.stop();
      // Last, so the spans and metrics of the final requests are exported.
      await telemetry?.shutdown();
    },
  };
}
