import type { Telemetry, TelemetryOptions } from "./types.js";

export type { Telemetry, TelemetryOptions } from "./types.js";

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
