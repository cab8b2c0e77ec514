/** Logging and telemetry: the OpenTelemetry SDK (traces, metrics, Prometheus) and its switches. */
import * as k from "../../config/kinds.js";
import type { Reader } from "../../config/reader.js";
import { defineVariables } from "../../config/variable.js";

export const LOG_LEVELS = ["panic", "fatal", "error", "warn", "info", "debug"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export const LOG_FORMATS = ["json", "pretty"] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

export const METRICS_EXPORTERS = ["opentelemetry", "prometheus"] as const;
export type MetricsExporter = (typeof METRICS_EXPORTERS)[number];

const variable = defineVariables("Logging and telemetry");
export const variables = {
  logLevel: variable({
    key: "LOG_LEVEL",
    aliases: ["LOG_LEVEL"],
    kind: k.oneOf(LOG_LEVELS),
    default: "info",
    description: "Least severe level that is logged.",
  }),
  logFile: variable({ key: "LOG_FILE", kind: k.text, description: "Also write logs to this file." }),
  logFormat: variable({
    key: "LOG_FORMAT",
    kind: k.oneOf(LOG_FORMATS),
    computedDefault: "`pretty` when standard output is a terminal (and no `LOG_FILE`), else `json`",
    description:
      "`json`: one JSON object per line, for log collectors. `pretty`: for a person (pino-pretty): level, time and message on one line, then the fields; in embedded mode the URL, data folder and development API keys as plain lines. Secrets are redacted in both.",
  }),
  tracingEnabled: variable({
    key: "TRACING_ENABLED",
    kind: k.boolean,
    default: "false",
    description:
      "Export traces over OTLP. The exporter reads the standard `OTEL_EXPORTER_OTLP_*` variables (endpoint, headers, protocol `http/protobuf` by default) and `OTEL_SERVICE_NAME` (default `authsvc`) from the process environment.",
  }),
  tracingExporter: variable({
    key: "TRACING_EXPORTER",
    kind: k.oneOf(["opentelemetry"]),
    default: "opentelemetry",
    description: "Trace exporter.",
  }),
  metricsEnabled: variable({
    key: "METRICS_ENABLED",
    kind: k.boolean,
    default: "false",
    description:
      "Export metrics (Node runtime, HTTP, and the reference's and authsvc's own; see docs/operations.md, Observability).",
  }),
  metricsExporter: variable({
    key: "METRICS_EXPORTER",
    kind: k.oneOf(METRICS_EXPORTERS),
    default: "opentelemetry",
    description: "`opentelemetry` pushes to a collector; `prometheus` serves `/` on a separate server.",
  }),
  prometheusHost: variable({
    key: "OTEL_EXPORTER_PROMETHEUS_HOST",
    aliases: ["OTEL_EXPORTER_PROMETHEUS_HOST"],
    kind: k.host,
    default: "0.0.0.0",
    description: "Address of the Prometheus metrics server.",
  }),
  prometheusPort: variable({
    key: "OTEL_EXPORTER_PROMETHEUS_PORT",
    aliases: ["OTEL_EXPORTER_PROMETHEUS_PORT"],
    kind: k.port(),
    default: "9100",
    description: "Port of the Prometheus metrics server.",
  }),
  resourceAttributes: variable({
    key: "OTEL_RESOURCE_ATTRIBUTES",
    aliases: ["OTEL_RESOURCE_ATTRIBUTES"],
    kind: k.text,
    description: "Extra OpenTelemetry resource attributes (`key=value,…`); `auth.version` is always added.",
  }),
  debug: variable({
    key: "DEBUG",
    aliases: ["DEBUG"],
    kind: k.text,
    description:
      "`true` makes the telemetry SDK's own diagnostics verbose (logged at debug level). Other values are ignored, so a `DEBUG=name:*` meant for other tools does no harm.",
  }),
};

export interface LogConfig {
  readonly level: LogLevel;
  readonly file: string | undefined;
  /** Undefined: chosen at start by whether standard output is a terminal. */
  readonly format: LogFormat | undefined;
}

export interface TracingConfig {
  readonly enabled: boolean;
  readonly exporter: "opentelemetry";
}

export interface MetricsConfig {
  readonly enabled: boolean;
  readonly exporter: MetricsExporter;
  readonly prometheus: { readonly host: string; readonly port: number };
}

export interface OtelConfig {
  readonly resourceAttributes: string | undefined;
  /** `DEBUG=true`: the SDK's diagnostics at debug level. */
  readonly debug: boolean;
}

export interface TelemetryConfig {
  readonly log: LogConfig;
  readonly tracing: TracingConfig;
  readonly metrics: MetricsConfig;
  readonly otel: OtelConfig;
}

export const read = (r: Reader) => r.getAll(variables);

export function settle(t: ReturnType<typeof read>): TelemetryConfig {
  return {
    log: { level: t.logLevel, file: t.logFile, format: t.logFormat },
    tracing: { enabled: t.tracingEnabled, exporter: t.tracingExporter },
    metrics: {
      enabled: t.metricsEnabled,
      exporter: t.metricsExporter,
      prometheus: { host: t.prometheusHost, port: t.prometheusPort },
    },
    otel: { resourceAttributes: t.resourceAttributes, debug: t.debug?.toLowerCase() === "true" },
  };
}

declare module "../../config/shape.js" {
  interface Config extends TelemetryConfig {}
}
