import type { Attributes } from "@opentelemetry/api";
import { node, metrics as sdkMetrics } from "@opentelemetry/sdk-node";
import { createInstruments, type Instruments } from "../infrastructure/telemetry/instruments.js";
import { InFlight } from "../infrastructure/telemetry/observe-store.js";

/** A reader a test collects on demand. */
class TestReader extends sdkMetrics.MetricReader {
  protected async onForceFlush() {}
  protected async onShutdown() {}
}

/**
 * An in-memory SDK for tests: finished spans and collectable metrics. Registers the tracer provider
 * globally, for the async-hooks context manager that parents child spans.
 */
export function inMemoryTelemetry(options: { version?: string; dbPoolMax?: number } = {}) {
  const spans = new node.InMemorySpanExporter();
  const tracerProvider = new node.NodeTracerProvider({
    spanProcessors: [new node.SimpleSpanProcessor(spans)],
  });
  tracerProvider.register();
  const reader = new TestReader();
  const meterProvider = new sdkMetrics.MeterProvider({ readers: [reader] });
  const inFlight = new InFlight();
  const instruments: Instruments = createInstruments(meterProvider.getMeter("test"), {
    version: options.version ?? "1.2.3",
    dbInFlight: () => inFlight.count,
    dbPoolMax: options.dbPoolMax ?? 10,
  });

  /** The sum of the points of metric `name` whose attributes include `attributes`; undefined if none. */
  async function metric(name: string, attributes: Attributes = {}): Promise<number | undefined> {
    const { resourceMetrics } = await reader.collect();
    let total: number | undefined;
    for (const scope of resourceMetrics.scopeMetrics) {
      for (const m of scope.metrics) {
        if (m.descriptor.name !== name) continue;
        for (const point of m.dataPoints) {
          if (!Object.entries(attributes).every(([k, v]) => point.attributes[k] === v)) continue;
          const value = point.value;
          total = (total ?? 0) + (typeof value === "number" ? value : value.count);
        }
      }
    }
    return total;
  }

  return {
    tracer: tracerProvider.getTracer("test"),
    instruments,
    inFlight,
    spans: () => spans.getFinishedSpans(),
    metric,
  };
}
