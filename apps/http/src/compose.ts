import {
  connectPostgres,
  type EmbeddedPostgres,
  migrate,
  resolveMigrationsDir,
  type Sql,
  signApiKey,
  startEmbeddedPostgres,
} from "@authsvc/adapters";
import type { Hono } from "hono";
import type { Logger } from "pino";
import { createApp } from "./app.js";
import { authDepsOf } from "./auth-deps.js";
import type { Config } from "./config.js";
import { logUnredacted } from "./logger.js";
import { settingsOf } from "./settings-view.js";
import { readVersion } from "./version.js";

/** The wired server: its app and everything that must be closed on shutdown, in order. */
export interface Composition {
  readonly app: Hono;
  readonly sql: Sql;
  /** Ends the pool, then stops the embedded database (whose shutdown flushes it to disk). */
  close(): Promise<void>;
}

/** Opens the database (starting the embedded one when no URL is configured) and migrates it. */
export async function openDatabase(
  config: Config,
  logger: Logger,
): Promise<{ sql: Sql; embedded?: EmbeddedPostgres }> {
  let embedded: EmbeddedPostgres | undefined;
  let url = config.db.url;
  if (url === undefined) {
    embedded = await startEmbeddedPostgres({ dataDir: config.dataDir });
    url = embedded.url;
    logger.info({ data_dir: config.dataDir, database: url }, "embedded database started");
  }
  const sql = connectPostgres({
    url,
    maxPoolSize: config.db.maxPoolSize,
    connMaxIdleTimeMs: config.db.connMaxIdleTimeMs,
    connMaxLifetimeMs: config.db.connMaxLifetimeMs,
    // Named statements live in the backend; the embedded one is shared by every connection.
    embedded: embedded !== undefined || !config.db.preparedStatements,
    onNotice: (notice) => logger.debug({ notice: notice.message }, "database notice"),
  });
  try {
    const { applied } = await migrate(sql, {
      namespace: config.db.namespace,
      migrationsDir: resolveMigrationsDir(),
      log: (msg, fields) => logger.info(fields ?? {}, msg),
    });
    logger.info({ applied, namespace: config.db.namespace }, "migrations up to date");
  } catch (error) {
    await sql.end({ timeout: 5 });
    await embedded?.stop();
    throw error;
  }
  return embedded ? { sql, embedded } : { sql };
}

/** Builds the running application from a valid configuration. */
export async function compose(config: Config, logger: Logger): Promise<Composition> {
  const { sql, embedded } = await openDatabase(config, logger);
  const app = createApp({
    logger,
    version: readVersion(),
    settings: settingsOf(config),
    auth: authDepsOf(config, sql, logger),
    requestIdHeader: config.api.requestIdHeader,
    corsAllowedHeaders: config.api.corsAllowedHeaders,
    maxRequestDurationMs: config.api.maxRequestDurationMs,
    rateLimit: config.rateLimit,
  }) as unknown as Hono;
  return {
    app,
    sql,
    async close() {
      // The pool first: the embedded server must not vanish under queries still in flight.
      await sql.end({ timeout: 5 });
      await embedded?.stop();
    },
  };
}

/**
 * The embedded mode's welcome: what it is, and two keys signed with the development secret so that
 * every endpoint can be called at once (anon for public ones, service_role for /admin).
 */
export async function announceDevelopmentMode(config: Config, logger: Logger, notices: readonly string[]) {
  logger.warn(
    { data_dir: config.dataDir },
    "DEVELOPMENT MODE: no DATABASE_URL set, using the embedded database with development defaults. Do not use in production.",
  );
  for (const notice of notices) logger.warn(notice);
  const now = Math.floor(Date.now() / 1000);
  logUnredacted(
    logger,
    {
      anon_key: await signApiKey(config.jwt.secret, "anon", now),
      service_role_key: await signApiKey(config.jwt.secret, "service_role", now),
    },
    "development API keys (signed with the development JWT secret): send as 'Authorization: Bearer <key>' and 'apikey: <key>'",
  );
}
