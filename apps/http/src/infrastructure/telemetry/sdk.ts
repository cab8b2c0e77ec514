import type { AuthDeps } from "@authsvc/core";
import { metrics, trace } from "@opentelemetry/api";
import { RuntimeNodeInstrumentation } from "@opentelemetry/instrumentation-runtime-node";
import { UndiciInstrumentation } from "@opentelemetry/instrumentation-undici";
import { NodeSDK, resources } from "@opentelemetry/sdk-node";
import { routeDiagnostics } from "./diagnostics.js";
import { httpTelemetry } from "./http-middleware.js";
import { createInstruments } from "./instruments.js";
import { metricReader } from "./metric-reader.js";
import { observeHasher, observeHooks, observeMailer, observeSms } from "./observe-ports.js";
import { InFlight, observeStore } from "./observe-store.js";
import { withoutQuery } from "./outbound.js";
import { parseResourceAttributes } from "./resource.js";
import type { Telemetry, TelemetryOptions } from "./types.js";

const SCOPE = "authsvc";

/**
 * `service.name=authsvc`, the configured attributes, `auth.version`, then what the standard detectors
 * find (`OTEL_SERVICE_NAME` and `OTEL_RESOURCE_ATTRIBUTES` of the process environment, host,
 * process), settled before any export so that none goes out with half a resource.
 */
async function resourceOf(configured: string | undefined, version: string) {
  const detected = resources.detectResources({
    detectors: [resources.envDetector, resources.hostDetector, resources.processDetector],
  });
  await detected.waitForAsyncAttributes?.();
  return resources
    .resourceFromAttributes({
      "service.name": "authsvc",
      "service.version": version,
      ...parseResourceAttributes(configured),
      "auth.version": version,
    })
    .merge(detected);
}

/**
 * The OpenTelemetry Node SDK. Traces go over OTLP, configured by the standard `OTEL_*` variables
 * the SDK reads itself (exporter, endpoint, headers, protocol `http/protobuf` by default, sampler,
 * propagators); metrics to Prometheus or OTLP. The resource is `service.name=authsvc` (or
 * `OTEL_SERVICE_NAME`), the configured `OTEL_RESOURCE_ATTRIBUTES`, and `auth.version`.
 */
export async function startSdk(options: TelemetryOptions): Promise<Telemetry> {
  const { config, logger, version } = options;
  routeDiagnostics(logger, config.otel.debug);
  const tracing = config.tracing.enabled;
  const metricsOn = config.metrics.enabled;
  const sdk = new NodeSDK({
    resource: await resourceOf(config.otel.resourceAttributes, version),
    autoDetectResources: false,
    // Without tracing, no span processor: the SDK then registers no tracer provider at all.
    ...(tracing ? {} : { spanProcessors: [] }),
    metricReaders: metricsOn ? [await metricReader(config.metrics, logger)] : [],
    // authsvc logs with pino to stdout; nothing is sent through the logs signal.
    logRecordProcessors: [],
    instrumentations: [
      new UndiciInstrumentation({ requestHook: withoutQuery }),
      ...(metricsOn ? [new RuntimeNodeInstrumentation()] : []),
    ],
  });
  sdk.start();
  logger.info({ tracing, metrics: metricsOn ? config.metrics.exporter : false }, "OpenTelemetry started");

  const tracer = tracing ? trace.getTracer(SCOPE, version) : undefined;
  const inFlight = new InFlight();
  // The cleanup starts after the SDK: until it is observed, nothing is counted.
  let cleanupAffectedRows = () => 0;
  const instruments = metricsOn
    ? createInstruments(metrics.getMeter(SCOPE, version), {
        version,
        dbInFlight: () => inFlight.count,
        dbPoolMax: options.dbPoolMax,
        cleanupAffectedRows: () => cleanupAffectedRows(),
      })
    : undefined;
  const observation = { tracer, instruments };

  return {
    middleware: httpTelemetry(observation),
    observe: (auth: AuthDeps): AuthDeps => ({
      ...auth,
      store: observeStore(auth.store, { ...observation, inFlight, dbSystem: "postgresql" }),
      hasher: observeHasher(auth.hasher, observation),
      mailer: observeMailer(auth.mailer, observation),
      sms: observeSms(auth.sms, observation),
      hooks: observeHooks(auth.hooks, observation),
    }),
    observeCleanup(affectedRows) {
      cleanupAffectedRows = affectedRows;
    },
    async shutdown() {
      try {
        await sdk.shutdown();
      } catch (error) {
        logger.warn({ err: error }, "OpenTelemetry did not shut down cleanly");
      }
    },
  };
}
