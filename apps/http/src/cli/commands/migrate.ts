import { loadDatabaseOnly } from "../../composition/partial-load.js";
import { openDatabase } from "../../infrastructure/database/database.js";
import { createLogger } from "../../infrastructure/telemetry/logger.js";
import type { Command } from "../command.js";
import { environment, refuseConfiguration } from "../environment.js";
import { refuseArguments } from "../refuse.js";

/** `authsvc migrate`: brings the database's schema up to date, then exits. Reads only the database variables. */
export const migrate: Command = {
  name: "migrate",
  summary: "bring the database schema up to date and exit",
  usage: `usage: authsvc migrate

Applies the schema migrations and database functions, then exits. Reads only the database
variables (DATABASE_URL, AUTHSVC_DB_*; without a URL, the embedded database in AUTHSVC_DATA_DIR)
and the log's (AUTHSVC_LOG_*).`,
  async run(args) {
    const refused = refuseArguments(this, args);
    if (refused !== undefined) return refused;
    const loaded = loadDatabaseOnly(environment());
    if (!loaded.ok) return refuseConfiguration(loaded.problems, loaded.warnings);
    const { config } = loaded;
    const logger = createLogger(config.log);
    const { sql, embedded } = await openDatabase(config, logger);
    await sql.end({ timeout: 5 });
    await embedded?.stop();
    logger.flush();
    return 0;
  },
};
