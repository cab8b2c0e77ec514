import { compose } from "../../composition/compose.js";
import { apiKeyWarnings } from "../../config/api-key-warnings.js";
import { proxyTrust } from "../../http/client-address.js";
import { guardAgainstDatabaseFaults } from "../../infrastructure/database/fault-guard.js";
import { logFormat } from "../../infrastructure/telemetry/log-format.js";
import { createLogger } from "../../infrastructure/telemetry/logger.js";
import { listen } from "../../server.js";
import type { Command } from "../command.js";
import { announceDevelopmentKeys, announceDevelopmentMode } from "../development-announcement.js";
import { configure } from "../environment.js";
import { limitHeapGrowth } from "../heap-growth.js";
import { refuseArguments } from "../refuse.js";
import { lowerWorkerPoolPriority } from "../worker-pool-priority.js";

/** How long shutdown may take before the process gives up and exits non-zero. */
const SHUTDOWN_DEADLINE_MS = 8_000;

/** `authsvc serve` (the default): runs the server until SIGTERM or SIGINT. */
export const serve: Command = {
  name: "serve",
  summary: "run the server (the default command)",
  usage: "usage: authsvc [serve]\n\nRuns the server with the configuration from the environment and .env.",
  async run(args) {
    const refused = refuseArguments(this, args);
    if (refused !== undefined) return refused;
    const { config, notices, warnings } = configure();
    const logger = createLogger(config.log);

    if (config.embedded) announceDevelopmentMode(config, logger, notices);
    else for (const notice of notices) logger.info(notice);
    for (const warning of [...warnings, ...apiKeyWarnings(config)]) logger.warn(warning);

    limitHeapGrowth();
    guardAgainstDatabaseFaults(process, logger, (code) => process.exit(code));
    const composition = await compose(config, logger);
    const server = await listen(composition.app, {
      host: config.api.host,
      port: config.api.port,
      maxConcurrentRequests: config.api.maxConcurrentRequests,
      maxQueuedRequests: config.api.maxQueuedRequests,
      maxQueueWaitMs: config.api.maxQueueWaitMs,
      bodyTimeoutMs: config.api.bodyTimeoutMs,
      basePaths: config.api.basePaths,
      proxyTrust: proxyTrust(config.api.trustedProxyHops, config.api.trustedProxies),
    });
    // Before the line that says where it listens, which is what a waiting script looks for.
    if (config.embedded) await announceDevelopmentKeys(config, logger, server.url, logFormat(config.log));
    logger.info({ url: server.url }, `authsvc listening on ${server.url}`);
    // Password hashing yields to the event loop (cli/worker-pool-priority.ts); a few ms of work, off the start.
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
    return undefined;
  },
};
