import type { EventEmitter } from "node:events";
import { isDatabaseUnavailable } from "@authsvc/adapters";
import type { Logger } from "pino";

/**
 * Keeps the process running when a database connection fails outside any request (a driver callback
 * or an unobserved promise): the pool reconnects by itself and requests meanwhile get 503s, so ending
 * the process would only turn a short outage into a restart. Anything else still ends the process,
 * as Node would, after it is logged.
 */
export function guardAgainstDatabaseFaults(
  proc: EventEmitter,
  logger: Logger,
  exit: (code: number) => void,
): void {
  const handle = (error: unknown, origin: string) => {
    if (isDatabaseUnavailable(error)) {
      logger.error({ err: error, origin }, "database connection failed outside a request; reconnecting");
      return;
    }
    logger.fatal({ err: error, origin }, "unexpected error, exiting");
    logger.flush(() => exit(1));
  };
  proc.on("uncaughtException", (error: unknown) => handle(error, "uncaughtException"));
  proc.on("unhandledRejection", (reason: unknown) => handle(reason, "unhandledRejection"));
}
