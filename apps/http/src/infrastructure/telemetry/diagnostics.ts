import { type DiagLogger, DiagLogLevel, diag } from "@opentelemetry/api";
import type { Logger } from "pino";

/** At most one warning or error line of the SDK per this many milliseconds. */
const QUIET_MS = 30_000;

/**
 * Routes the SDK's own diagnostics to the log. An unreachable collector makes every export fail: its
 * errors are logged at most once per 30 s (with how many were left out), never thrown at a request.
 * `DEBUG=true` lets everything through at debug level.
 */
export function routeDiagnostics(logger: Logger, verbose: boolean, now: () => number = Date.now): void {
  const log = logger.child({ source: "opentelemetry" });
  let quietUntil = 0;
  let suppressed = 0;
  const limited =
    (level: "warn" | "error") =>
    (message: string, ...args: unknown[]) => {
      if (!verbose) {
        if (now() < quietUntil) {
          suppressed++;
          return;
        }
        quietUntil = now() + QUIET_MS;
      }
      const detail = args.map((a) => (a instanceof Error ? a.message : String(a))).join(" ");
      log[level]({ suppressed: suppressed || undefined, detail: detail || undefined }, message);
      suppressed = 0;
    };
  const debug = (message: string, ...args: unknown[]) => log.debug({ args: args.map(String) }, message);
  const logger_: DiagLogger = {
    error: limited("error"),
    warn: limited("warn"),
    info: debug,
    debug,
    verbose: debug,
  };
  diag.setLogger(logger_, {
    logLevel: verbose ? DiagLogLevel.ALL : DiagLogLevel.WARN,
    suppressOverrideMessage: true,
  });
}
