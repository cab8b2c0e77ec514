import { type Cleaner, cleaner, cleanupTasks, type PassReport, type Sql } from "@authsvc/adapters";
import type { Logger } from "pino";
import { cleanupSettings } from "../config/sections/cleanup.js";
import type { Config } from "../config.js";

/** The instance's continuous cleanup (`CLEANUP_*`): started by the composition root, stopped on shutdown. */
export interface ScheduledCleanup {
  /** Rows removed by this instance since it started (`gotrue_cleanup_affected_rows`). */
  readonly affectedRows: number;
  /** Starts the passes (the first within one interval); nothing when `CLEANUP_ENABLED` is off. */
  start(): void;
  /** Stops after the statement in flight, if any; resolves once it is done. */
  stop(): Promise<void>;
}

/** The cleaner of `config`'s tasks on `sql`. */
export function configuredCleaner(config: Config, sql: Sql): Cleaner {
  return cleaner(sql, cleanupTasks(cleanupSettings(config)), {
    namespace: config.db.namespace,
    batchSize: config.cleanup.batchSize,
  });
}

/**
 * The log line of a pass: what each kind lost, and the turns that failed. A pass that removed
 * nothing is logged at debug level (the usual case every few seconds) unless `always`.
 */
export function logPass(logger: Logger, report: PassReport, ms: number, always = false): void {
  const fields = {
    // A list rather than an object keyed by task: names such as `refresh_tokens` would be redacted as keys.
    removed: Object.entries(report.removed)
      .filter(([, rows]) => rows > 0)
      .map(([task, rows]) => ({ task, rows })),
    total: report.total,
    turns: report.turns,
    duration_ms: Math.round(ms),
    complete: report.complete,
  };
  for (const failure of report.failures)
    logger.warn(
      { task: failure.task, err: failure.error },
      "cleanup statement failed; its rows wait for the next pass",
    );
  if (always || report.total > 0 || report.failures.length > 0) logger.info(fields, "cleanup pass");
  else logger.debug(fields, "cleanup pass");
}

/**
 * Runs a pass every `CLEANUP_INTERVAL`, each for at most that long; the first after a random part of
 * an interval, so that instances started together do not clean in step.
 */
export function scheduledCleanup(config: Config, sql: Sql, logger: Logger): ScheduledCleanup {
  const clean = configuredCleaner(config, sql);
  const { enabled, intervalMs } = config.cleanup;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopped = false;

  const pass = async () => {
    const started = performance.now();
    const report = await clean.pass(() => stopped || performance.now() - started > intervalMs);
    logPass(logger, report, performance.now() - started);
  };
  const schedule = (delayMs: number) => {
    timer = setTimeout(() => {
      running = pass()
        .catch((error: unknown) => logger.warn({ err: error }, "cleanup pass failed"))
        .finally(() => {
          running = undefined;
          if (!stopped) schedule(intervalMs);
        });
    }, delayMs);
    // A pending pass never keeps the process alive.
    timer.unref();
  };

  return {
    get affectedRows() {
      return clean.affectedRows;
    },
    start() {
      if (!enabled || stopped || timer) return;
      schedule(intervalMs / 2 + Math.random() * (intervalMs / 2));
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
