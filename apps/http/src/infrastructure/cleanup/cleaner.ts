import { type Cleaner, cleaner, cleanupTasks, type PassReport, type Sql } from "@authsvc/adapters";
import type { Logger } from "pino";
import type { Config } from "../../config/types.js";
import { cleanupSettings } from "./section.js";

/** The instance's continuous cleanup (`CLEANUP_*`): started by the composition root, stopped on shutdown. */
export interface ScheduledCleanup {
  /** Rows removed by this instance since it started (`gotrue_cleanup_affected_rows`). */
  readonly affectedRows: number;
  /** Starts the passes (the first within one interval); nothing when `CLEANUP_ENABLED` is off. */
  start(): void;
  /** Stops after the statement in flight, if any, and closes its connection; resolves once both are done. */
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

/** The `application_name` of the cleanup's connection. */
export const CLEANUP_APPLICATION_NAME = "authsvc cleanup";

/**
 * Runs a pass every `CLEANUP_INTERVAL`, each for at most that long (one stopped by that limit is
 * followed after a tenth of it); the first after a random part of an interval, so that instances
 * started together do not clean in step. The passes run on a
 * connection of their own, opened by `openPool` (one more than `DB_MAX_POOL_SIZE`): on the requests'
 * pool each turn waited in line behind the requests, 30–40 ms a turn under load against 1–3 ms of
 * work, and a pass ended by its time limit with a fraction of its rows removed.
 */
export function scheduledCleanup(
  config: Config,
  openPool: (maxPoolSize: number, applicationName: string) => Sql,
  logger: Logger,
): ScheduledCleanup {
  const { enabled, intervalMs } = config.cleanup;
  // Lazy: postgres.js connects at the first statement, so a disabled cleanup opens nothing.
  const sql = openPool(1, CLEANUP_APPLICATION_NAME);
  const clean = configuredCleaner(config, sql);
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopped = false;

  /** Runs a pass; resolves to whether it ran out of time with rows still to remove. */
  const pass = async (): Promise<boolean> => {
    const started = performance.now();
    const report = await clean.pass(() => stopped || performance.now() - started > intervalMs);
    logPass(logger, report, performance.now() - started);
    return !report.complete && report.failures.length === 0;
  };
  const schedule = (delayMs: number) => {
    timer = setTimeout(() => {
      running = pass()
        .catch((error: unknown) => {
          logger.warn({ err: error }, "cleanup pass failed");
          return false;
        })
        .then((unfinished) => {
          running = undefined;
          // A pass stopped by its time limit left rows behind (a backlog, or rows going stale as
          // fast as the turns remove them under a sustained load): the next follows after a tenth of
          // an interval, so that the cleanup keeps up; one that finished, or failed, waits a whole one.
          if (!stopped) schedule(unfinished ? intervalMs / 10 : intervalMs);
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
      await sql.end({ timeout: 5 });
    },
  };
}
