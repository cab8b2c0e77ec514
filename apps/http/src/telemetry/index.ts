import type { AuthDeps } from "@authsvc/core";
import type { MiddlewareHandler } from "hono";
import type { Logger } from "pino";
import type { Config } from "../config.js";
import type { AppEnv } from "../http/app-env.js";

/** The running OpenTelemetry SDK, as the composition root uses it. */
export interface Telemetry {
  /** The request span and the HTTP metrics; goes right after the request context. */
  readonly middleware: MiddlewareHandler<AppEnv>;
  /** The ports observed at their boundary: store, hasher, mailer, SMS sender. */
  observe(auth: AuthDeps): AuthDeps;
  /** Counts, as `gotrue_cleanup_affected_rows`, the rows the instance's cleanup removed so far. */
  observeCleanup(affectedRows: () => number): void;
  /** Exports what is buffered, stops the Prometheus server; never throws. */
  shutdown(): Promise<void>;
}

export interface TelemetryOptions {
  readonly config: Config;
  readonly logger: Logger;
  readonly version: string;
  /** The pool's maximum number of connections, for the pool gauges. */
  readonly dbPoolMax: number;
}

/**
 * Starts the SDK when `TRACING_ENABLED` or `METRICS_ENABLED` is on, else answers undefined without
 * loading any of it: with telemetry off, no OpenTelemetry module is even imported and no request
 * pays for it.
 */
export async function startTelemetry(options: TelemetryOptions): Promise<Telemetry | undefined> {
  const { tracing, metrics } = options.config;
  if (!tracing.enabled && !metrics.enabled) return undefined;
  const { startSdk } = await import("./sdk.js");
  return startSdk(options);
}
