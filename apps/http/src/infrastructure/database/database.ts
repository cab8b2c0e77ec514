import { randomBytes } from "node:crypto";
import {
  connectPostgres,
  defaultTemplateDir,
  type EmbeddedPostgres,
  migrate,
  postgresStore,
  resolveMigrationsDir,
  type Sql,
  startEmbeddedPostgres,
  usableTemplate,
} from "@authsvc/adapters";
import type { AuthDeps } from "@authsvc/core";
import type { Logger } from "pino";
import type { Config } from "../../config/types.js";
import { logUnredacted } from "../telemetry/logger.js";
import { waitForDatabase } from "./database-wait.js";

/** An opened database: the requests' pool, and more pools on the same database with the same settings. */
export interface OpenedDatabase {
  readonly sql: Sql;
  readonly embedded?: EmbeddedPostgres;
  /** Another pool of at most `maxPoolSize` connections, named `applicationName` in `pg_stat_activity`. */
  openPool(maxPoolSize: number, applicationName: string): Sql;
}

/** Opens the database (starting the embedded one when no URL is configured) and migrates it. */
export async function openDatabase(
  config: Pick<Config, "db" | "dataDir">,
  logger: Logger,
): Promise<OpenedDatabase> {
  let embedded: EmbeddedPostgres | undefined;
  let url = config.db.url;
  if (url === undefined) {
    // A fresh data folder starts from the template made at build time, when it matches these migrations.
    const template = await usableTemplate(defaultTemplateDir(), resolveMigrationsDir());
    // Any local user can reach a loopback port: only this process (and whoever reads its debug log)
    // knows the password, and a new one is made at every start.
    const password = randomBytes(24).toString("base64url");
    embedded = await startEmbeddedPostgres({
      dataDir: config.dataDir,
      password,
      ...(template ? { template } : {}),
    });
    url = embedded.url;
    logger.info(
      { data_dir: config.dataDir, database: embedded.displayUrl, created: embedded.created },
      "embedded database started",
    );
    logUnredacted(
      logger,
      { database_password: password },
      "embedded database password for this start (user postgres)",
      "debug",
    );
  }
  const databaseUrl = url;
  const openPool = (maxPoolSize: number, applicationName?: string) =>
    connectPostgres({
      url: databaseUrl,
      maxPoolSize,
      connMaxIdleTimeMs: config.db.connMaxIdleTimeMs,
      connMaxLifetimeMs: config.db.connMaxLifetimeMs,
      connectTimeoutMs: config.db.connectTimeoutMs,
      // Named statements live in the backend; the embedded one is shared by every connection.
      embedded: embedded !== undefined || !config.db.preparedStatements,
      onNotice: (notice) => logger.debug({ notice: notice.message }, "database notice"),
      ...(applicationName ? { applicationName } : {}),
    });
  const sql = openPool(config.db.maxPoolSize);
  try {
    // A database server starting beside this one (a container, a failover) is waited for, within bounds.
    if (!embedded) {
      const target = { variable: config.db.urlVariable ?? "DATABASE_URL", url: databaseUrl };
      await waitForDatabase(sql, target, config.db.startupTimeoutMs, logger);
    }
    const { applied, functions } = await migrate(sql, {
      namespace: config.db.namespace,
      migrationsDir: resolveMigrationsDir(),
      log: (msg, fields) => logger.info(fields ?? {}, msg),
    });
    logger.info({ applied, functions, namespace: config.db.namespace }, "migrations up to date");
  } catch (error) {
    await sql.end({ timeout: 5 });
    await embedded?.stop();
    throw error;
  }
  return embedded ? { sql, embedded, openPool } : { sql, openPool };
}

/** The repositories the use cases run with, over the opened pool. */
export function storeOf(config: Config, sql: Sql): AuthDeps["store"] {
  return postgresStore(sql, { namespace: config.db.namespace });
}
