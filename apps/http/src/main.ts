#!/usr/bin/env node
import { type Config, ConfigFileError, loadConfig, readEnvironment } from "./config.js";
import { proxyTrust } from "./http/client-address.js";
import { KEYS_USAGE, keysCommand } from "./keys-command.js";
import { listen } from "./server.js";
import { announceDevelopmentMode, compose } from "./wiring/compose.js";
import { openDatabase } from "./wiring/database.js";
import { ensureDevSecret } from "./wiring/dev-secret.js";
import { guardAgainstDatabaseFaults } from "./wiring/fault-guard.js";
import { limitHeapGrowth } from "./wiring/heap-growth.js";
import { createLogger } from "./wiring/logger.js";
import { lowerWorkerPoolPriority } from "./wiring/worker-pool-priority.js";

const USAGE = "usage: authsvc [serve|migrate|keys]";
/** How long shutdown may take before the process gives up and exits non-zero. */
const SHUTDOWN_DEADLINE_MS = 8_000;

/** The environment with `.env`, or exit 1 when `.env` is malformed. */
function environment(): Record<string, string> {
  try {
    return readEnvironment(process.cwd(), process.env);
  } catch (error) {
    if (!(error instanceof ConfigFileError)) throw error;
    process.stderr.write(`authsvc: ${error.message}\n`);
    process.exit(1);
  }
}

/** `authsvc keys …`: needs no configuration and no database; prints a value for AUTHSVC_JWT_KEYS. */
function keys(args: readonly string[]): void {
  if (args.includes("--help") || args.includes("-h")) {
    process.stdout.write(`${KEYS_USAGE}\n`);
    return;
  }
  const outcome = keysCommand(args, environment());
  if (outcome.ok) {
    process.stdout.write(outcome.output);
    return;
  }
  process.stderr.write(`authsvc keys: ${outcome.error}\n${KEYS_USAGE}\n`);
  process.exit(2);
}

/** Loads the configuration or exits 1 with every problem, one per line, on stderr. */
function configure(): { config: Config; notices: string[]; warnings: string[] } {
  const vars = environment();
  const result = loadConfig(vars, { devJwtSecret: ensureDevSecret });
  if (!result.ok) {
    const count = result.problems.length;
    process.stderr.write(
      `authsvc: invalid configuration (${count} ${count === 1 ? "problem" : "problems"}):\n`,
    );
    for (const problem of result.problems) process.stderr.write(`  ${problem}\n`);
    process.exit(1);
  }
  return result;
}

async function main(command: string): Promise<void> {
  if (command === "keys") return keys(process.argv.slice(3));
  if (command !== "serve" && command !== "migrate") {
    process.stderr.write(`${USAGE}\n`);
    process.exit(2);
  }
  const { config, notices, warnings } = configure();
  const logger = createLogger({ level: config.log.level, file: config.log.file });

  if (command === "migrate") {
    const { sql, embedded } = await openDatabase(config, logger);
    await sql.end({ timeout: 5 });
    await embedded?.stop();
    logger.flush();
    return;
  }

  if (config.embedded) await announceDevelopmentMode(config, logger, notices);
  else for (const notice of notices) logger.info(notice);
  for (const warning of warnings) logger.warn(warning);

  limitHeapGrowth();
  guardAgainstDatabaseFaults(process, logger, (code) => process.exit(code));
  const composition = await compose(config, logger);
  const server = await listen(composition.app, {
    host: config.api.host,
    port: config.api.port,
    maxConcurrentRequests: config.api.maxConcurrentRequests,
    bodyTimeoutMs: config.api.bodyTimeoutMs,
    basePaths: config.api.basePaths,
    proxyTrust: proxyTrust(config.api.trustedProxyHops, config.api.trustedProxies),
  });
  logger.info({ url: server.url }, `authsvc listening on ${server.url}`);
  // Password hashing yields to the event loop (wiring/worker-pool-priority.ts); a few ms of work, off the start.
  void lowerWorkerPoolPriority().then(
    (threads) => logger.debug({ threads }, "worker pool threads lowered below the event loop"),
    (err: unknown) => logger.warn({ err }, "could not lower the worker pool's priority"),
  );

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, "shutting down: no new connections, finishing requests in flight");
    setTimeout(() => {
      logger.error("shutdown deadline passed, exiting");
      logger.flush();
      process.exit(1);
    }, SHUTDOWN_DEADLINE_MS).unref();
    await server.close();
    await composition.close();
    logger.info("stopped");
    logger.flush(() => process.exit(0));
  };
  process.on("SIGTERM", () => void stop("SIGTERM"));
  process.on("SIGINT", () => void stop("SIGINT"));
}

main(process.argv[2] ?? "serve").catch((error: unknown) => {
  // Startup faults (database unreachable, migration failure) end the process; the message names the
  // cause, never the connection string's password.
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(
    `authsvc: failed to start: ${message.replace(/(:\/\/[^:/@\s]+:)[^@\s]+@/g, "$1***@")}\n`,
  );
  process.exit(1);
});
