/**
 * GET /user with telemetry off and on (traces and metrics pushed over OTLP to a sink in this process),
 * and, with BENCH_BASELINE_MAIN, the same on another build of the server (the code before a change):
 * measured in alternation, round after round, so that the machine's noise falls on every variant.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type autocannon from "autocannon";

export interface Variant {
  readonly name: string;
  readonly url: string;
  readonly token: string;
}

/** An OTLP/HTTP sink: accepts every export and answers 200, as a collector does. */
export async function otlpSink(): Promise<{ url: string; close(): void }> {
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => res.writeHead(200, { "content-type": "application/x-protobuf" }).end());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() };
}

/** The environment that turns traces and metrics on, exporting to `sink`. */
export const telemetryEnv = (sink: string): Record<string, string> => ({
  AUTHSVC_TRACING_ENABLED: "true",
  AUTHSVC_METRICS_ENABLED: "true",
  OTEL_EXPORTER_OTLP_ENDPOINT: sink,
  OTEL_METRIC_EXPORT_INTERVAL: "5000",
});

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
};

/** Measures each variant `rounds` times in alternation and prints medians and ratios to the first. */
export async function compareGetUser(
  variants: readonly Variant[],
  rounds: number,
  measure: (options: autocannon.Options) => Promise<{ rps: number; p99: number; errors: number }>,
): Promise<void> {
  const results = new Map<string, { rps: number[]; p99: number[]; errors: number }>();
  for (let round = 0; round < rounds; round++) {
    for (const v of variants) {
      const m = await measure({ url: `${v.url}/user`, headers: { authorization: `Bearer ${v.token}` } });
      const r = results.get(v.name) ?? { rps: [], p99: [], errors: 0 };
      r.rps.push(m.rps);
      r.p99.push(m.p99);
      r.errors += m.errors;
      results.set(v.name, r);
      process.stderr.write(`measured GET /user, ${v.name}, round ${round + 1}\n`);
    }
  }
  const first = median(results.get(variants[0]?.name ?? "")?.rps ?? []);
  console.log(
    `\nGET /user by telemetry (median of ${rounds} alternating runs; ratio to "${variants[0]?.name}"):\n`,
  );
  console.log(
    "| variant                        |   req/s |  p99 ms | errors | runs (req/s)              | ratio |",
  );
  console.log(
    "| ------------------------------ | ------- | ------- | ------ | ------------------------- | ----- |",
  );
  for (const v of variants) {
    const r = results.get(v.name);
    if (!r) continue;
    const rps = median(r.rps);
    const runs = r.rps.map((n) => n.toFixed(0)).join(", ");
    console.log(
      `| ${v.name.padEnd(30)} | ${rps.toFixed(0).padStart(7)} | ${median(r.p99).toFixed(0).padStart(7)} | ${String(r.errors).padStart(6)} | ${runs.padEnd(25)} | ${(rps / first).toFixed(3)} |`,
    );
  }
}
