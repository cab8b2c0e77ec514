import { metrics as sdkMetrics } from "@opentelemetry/sdk-node";
import type { Logger } from "pino";
import type { MetricsConfig } from "./section.js";

type MetricReader = InstanceType<typeof sdkMetrics.MetricReader>;

/** A whole number of milliseconds from the environment, or the fallback. */
function millis(name: string, fallback: number): number {
  const value = Number(process.env[name]);
  return Number.isInteger(value) && value > 0 ? value : fallback;
}

/** The OTLP metric exporter of the protocol `OTEL_EXPORTER_OTLP_[METRICS_]PROTOCOL` names. */
async function otlpMetricExporter(): Promise<sdkMetrics.PushMetricExporter> {
  const protocol =
    (process.env.OTEL_EXPORTER_OTLP_METRICS_PROTOCOL ?? process.env.OTEL_EXPORTER_OTLP_PROTOCOL)?.trim() ||
    "http/protobuf";
  if (protocol === "http/json")
    return new (await import("@opentelemetry/exporter-metrics-otlp-http")).OTLPMetricExporter();
  if (protocol === "grpc")
    return new (await import("@opentelemetry/exporter-metrics-otlp-grpc")).OTLPMetricExporter();
  return new (await import("@opentelemetry/exporter-metrics-otlp-proto")).OTLPMetricExporter();
}

/**
 * `prometheus`: the text format at `/` of a separate server on `OTEL_EXPORTER_PROMETHEUS_HOST:PORT`,
 * started before the API listens (a port in use stops the start). `opentelemetry`: OTLP pushed every
 * `OTEL_METRIC_EXPORT_INTERVAL` ms (60 s by default).
 */
export async function metricReader(config: MetricsConfig, logger: Logger): Promise<MetricReader> {
  if (config.exporter === "prometheus") {
    const { PrometheusExporter } = await import("@opentelemetry/exporter-prometheus");
    const { host, port } = config.prometheus;
    return new Promise((resolve, reject) => {
      const exporter = new PrometheusExporter({ host, port, endpoint: "/" }, (error) => {
        if (error)
          return reject(
            new Error(`the Prometheus metrics server cannot listen on ${host}:${port}: ${error.message}`),
          );
        logger.info({ metrics_endpoint: `http://${host}:${port}/` }, "Prometheus metrics served");
        resolve(exporter);
      });
    });
  }
  const interval = millis("OTEL_METRIC_EXPORT_INTERVAL", 60_000);
  return new sdkMetrics.PeriodicExportingMetricReader({
    exporter: await otlpMetricExporter(),
    exportIntervalMillis: interval,
    exportTimeoutMillis: Math.min(interval, millis("OTEL_METRIC_EXPORT_TIMEOUT", 30_000)),
  });
}
