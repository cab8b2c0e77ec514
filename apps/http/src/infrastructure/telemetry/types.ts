import type { AuthDeps } from "@authsvc/core";
import type { MiddlewareHandler } from "hono";
import type { Logger } from "pino";
import type { Config } from "../../config/types.js";
import type { AppEnv } from "../../http/app-env.js";

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
