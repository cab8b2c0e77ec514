import { configuredCleaner, logPass } from "../../infrastructure/cleanup/cleaner.js";
import { openDatabase } from "../../infrastructure/database/database.js";
import { createLogger } from "../../infrastructure/telemetry/logger.js";
import type { Command } from "../command.js";
import { configure } from "../environment.js";

/** `authsvc cleanup`: one full pass of the cleanup, then exits. */
export const cleanup: Command = {
  name: "cleanup",
  summary: "remove every stale row now (one full cleanup pass) and exit",
  usage: [
    "usage: authsvc cleanup",
    "",
    "Removes every stale row the continuous cleanup would (see AUTHSVC_CLEANUP_ENABLED): revoked refresh",
    "tokens, ended sessions, flow states, MFA challenges, unverified factors, expired one-time tokens,",
    "ended request-limit windows, old anonymous users when anonymous sign-ins are on, and audit entries",
    "past AUTHSVC_AUDIT_LOG_RETENTION; in batches of AUTHSVC_CLEANUP_BATCH_SIZE, until none is left.",
    "Safe while servers run on the same database. Logs what it removed; exits 1 if a statement failed.",
  ].join("\n"),
  async run(args) {
    if (args.length > 0) {
      process.stderr.write(`authsvc cleanup: unexpected argument ${args[0]}\n${this.usage}\n`);
      return 2;
    }
    const { config } = configure();
    const logger = createLogger({ level: config.log.level, file: config.log.file });
    const { sql, embedded } = await openDatabase(config, logger);
    try {
      const started = performance.now();
      const report = await configuredCleaner(config, sql).pass();
      logPass(logger, report, performance.now() - started, true);
      return report.failures.length === 0 ? 0 : 1;
    } finally {
      await sql.end({ timeout: 5 });
      await embedded?.stop();
      logger.flush();
    }
  },
};
