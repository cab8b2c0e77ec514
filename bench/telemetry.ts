/**
 * GET /user with telemetry off and on (traces and metrics pushed over OTLP to a sink in this process),
 * and, with BENCH_BASELINE_MAIN, the same on another build of the server (the code before a change):
 * measured in alternation, round after round, so that the machine's noise falls on every variant.
 */
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type autocannon from "autocannon";

export interface Variant {
  readonly name: string;
  readonly url: string;
  readonly token: string;
  /** The server process, whose CPU time is read from /proc (Linux). */
  readonly pid?: number | undefined;
}

/** CPU time (user + system) the process has used, in microseconds; undefined where /proc is absent. */
function cpuMicros(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    // Fields after the parenthesised command name; utime and stime are the 12th and 13th of them.
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
    return ((Number(fields[11]) + Number(fields[12])) * 1_000_000) / CLOCK_TICKS;
  } catch {
    return undefined;
  }
}

/** Linux's USER_HZ: the unit of /proc's CPU times. */
const CLOCK_TICKS = 100;

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

/**
 * Measures each variant `rounds` times in alternation, rotating which goes first, and prints the
 * medians and their ratios to the first variant.
 */
export async function compareGetUser(
  variants: readonly Variant[],
  rounds: number,
  measure: (
    options: autocannon.Options,
  ) => Promise<{ rps: number; p99: number; errors: number; total: number }>,
): Promise<void> {
  const results = new Map<string, { rps: number[]; p99: number[]; cpu: number[]; errors: number }>();
  for (let round = 0; round < rounds; round++) {
    // Each round starts with the next variant, so none always runs first (or last) in a round.
    const order = variants.map((_, i) => variants[(i + round) % variants.length] as Variant);
    for (const v of order) {
      const cpuBefore = cpuMicros(v.pid);
      const m = await measure({ url: `${v.url}/user`, headers: { authorization: `Bearer ${v.token}` } });
      const cpuAfter = cpuMicros(v.pid);
      const r = results.get(v.name) ?? { rps: [], p99: [], cpu: [], errors: 0 };
      // CPU time per request is far less sensitive than req/s to other load on a shared machine.
      if (cpuBefore !== undefined && cpuAfter !== undefined && m.total > 0)
        r.cpu.push((cpuAfter - cpuBefore) / m.total);
      r.rps.push(m.rps);
      r.p99.push(m.p99);
      r.errors += m.errors;
      results.set(v.name, r);
      process.stderr.write(`measured GET /user, ${v.name}, round ${round + 1}\n`);
    }
  }
  const firstResult = results.get(variants[0]?.name ?? "");
  const first = median(firstResult?.rps ?? []);
  const firstCpu = median(firstResult?.cpu ?? []);
  console.log(
    `\nGET /user by telemetry (median of ${rounds} alternating runs; ratios to "${variants[0]?.name}"):\n`,
  );
  console.log(
    "| variant                        |   req/s | ratio |  p99 ms | errors | server CPU µs/request | ratio | runs (req/s)                   |",
  );
  console.log(
    "| ------------------------------ | ------- | ----- | ------- | ------ | --------------------- | ----- | ------------------------------ |",
  );
  for (const v of variants) {
    const r = results.get(v.name);
    if (!r) continue;
    const rps = median(r.rps);
    const cpu = median(r.cpu);
    const runs = r.rps.map((n) => n.toFixed(0)).join(", ");
    console.log(
      `| ${v.name.padEnd(30)} | ${rps.toFixed(0).padStart(7)} | ${(rps / first).toFixed(3)} | ${median(r.p99).toFixed(0).padStart(7)} | ${String(r.errors).padStart(6)} | ${cpu.toFixed(0).padStart(21)} | ${(cpu / firstCpu).toFixed(3)} | ${runs.padEnd(30)} |`,
    );
  }
}
