import { openDatabase } from "../../wiring/database.js";
import { createLogger } from "../../wiring/logger.js";
import type { Command } from "../command.js";
import { configure } from "../environment.js";

/** `authsvc migrate`: brings the database's schema up to date, then exits. */
export const migrate: Command = {
  name: "migrate",
  summary: "bring the database schema up to date and exit",
  usage: "usage: authsvc migrate\n\nApplies the schema migrations and database functions, then exits.",
  async run(args) {
    if (args.length > 0) {
      process.stderr.write(`authsvc migrate: unexpected argument ${args[0]}\n${this.usage}\n`);
      return 2;
    }
    const { config } = configure();
    const logger = createLogger({ level: config.log.level, file: config.log.file });
    const { sql, embedded } = await openDatabase(config, logger);
    await sql.end({ timeout: 5 });
    await embedded?.stop();
    logger.flush();
    return 0;
  },
};
