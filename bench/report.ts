/** The bench's medians and ratios (`summary`) and what it prints and writes at the end (`report`). */
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type autocannon from "autocannon";
import { args, DURATION_S, PGBOUNCER, POPULATION, ROUNDS } from "./options.js";
import { type Measured, median, pinning, root } from "./processes.js";

export interface Scenario {
  name: string;
  baseline: string;
  /** Target: minimum ratio of req/s to the baseline's. */
  target: number;
  ours(connections: number): Promise<autocannon.Options> | autocannon.Options;
  base(connections: number): Promise<autocannon.Options> | autocannon.Options;
}

export interface Row {
  scenario: string;
  baseline: string;
  connections: number;
  target: number;
  ours: Measured[];
  base: Measured[];
}

export function summary(row: Row) {
  const pick = (ms: Measured[], k: keyof Measured) => median(ms.map((m) => m[k]));
  const side = (ms: Measured[]) => ({
    rps: pick(ms, "rps"),
    p99: pick(ms, "p99"),
    cpuUs: pick(ms, "cpuUs"),
    dbCpuUs: pick(ms, "dbCpuUs"),
  });
  const ours = side(row.ours);
  const base = side(row.base);
  // The ratio of each round's pair, then their median: a pair ran in the same minute.
  const ratios = row.ours.map((m, i) => m.rps / (row.base[i]?.rps ?? Number.NaN));
  const ratio = median(ratios);
  return {
    scenario: row.scenario,
    baseline: row.baseline,
    connections: row.connections,
    ours: {
      ...ours,
      errors: row.ours.reduce((s, m) => s + m.errors, 0),
      runs: row.ours.map((m) => Math.round(m.rps)),
    },
    base: {
      ...base,
      errors: row.base.reduce((s, m) => s + m.errors, 0),
      runs: row.base.map((m) => Math.round(m.rps)),
    },
    ratio,
    ratios,
    p99Ratio: ours.p99 / base.p99,
    /** Baseline's server + database CPU per request ÷ ours: the throughput ratio when CPU is what runs out. */
    cpuRatio: (base.cpuUs + (base.dbCpuUs || 0)) / (ours.cpuUs + (ours.dbCpuUs || 0)),
    target: row.target,
    met: ratio >= row.target,
  };
}

/**
 * With --pgbouncer: for each scenario and concurrency, the pair through PgBouncer against the direct
 * pair of the same rounds — the median of the per-round quotients of their req/s ratios, and the
 * quotient of their CPU ratios (target: within 15%, i.e. at least 0.85).
 */
export function pooledAgainstDirect(rows: Row[]) {
  const pooled = rows.filter((r) => r.scenario.endsWith(POOLED));
  return pooled.flatMap((p) => {
    const direct = rows.find(
      (r) => r.scenario === p.scenario.slice(0, -POOLED.length) && r.connections === p.connections,
    );
    if (!direct) return [];
    const ratio = (row: Row, i: number) =>
      (row.ours[i]?.rps ?? Number.NaN) / (row.base[i]?.rps ?? Number.NaN);
    const quotients = p.ours.map((_, i) => ratio(p, i) / ratio(direct, i));
    return [
      {
        scenario: direct.scenario,
        connections: p.connections,
        rpsQuotient: median(quotients),
        quotients,
        cpuQuotient: summary(p).cpuRatio / summary(direct).cpuRatio,
      },
    ];
  });
}
export const POOLED = " (PgBouncer)";

export function report(
  dbUrl: string,
  bareRows: { connections: number; rps: number; p99: number }[],
  summaries: ReturnType<typeof summary>[],
  extras: Record<string, unknown>,
  pooled: ReturnType<typeof pooledAgainstDirect> = [],
) {
  const n = (x: number, d = 0) => (Number.isFinite(x) ? x.toFixed(d) : "-");
  console.log(
    `\nauthsvc benchmark: ${ROUNDS} interleaved rounds × ${DURATION_S}s, medians; PostgreSQL with ${POPULATION} other users${PGBOUNCER ? "; a second pair through PgBouncer (transaction mode)" : ""}; ${pinning ? "servers on core 0, load generator on core 1" : "no core pinning"}\n`,
  );
  for (const b of bareRows)
    console.log(`(a) bare route @${b.connections}: ${n(b.rps)} req/s, p99 ${n(b.p99)} ms`);
  if (summaries.length) {
    console.log(
      "\n| scenario | conns | req/s | p99 ms | errors | baseline | req/s | p99 ms | ratio | target | met | p99 ratio | CPU µs/req (server + db) | base CPU µs/req (server + db) | CPU ratio |",
    );
    console.log(
      "| --- | ---: | ---: | ---: | ---: | --- | ---: | ---: | ---: | ---: | --- | ---: | ---: | ---: | ---: |",
    );
    for (const s of summaries) {
      console.log(
        `| ${s.scenario} | ${s.connections} | ${n(s.ours.rps)} | ${n(s.ours.p99)} | ${s.ours.errors} | ${s.baseline} | ${n(s.base.rps)} | ${n(s.base.p99)} | ${n(s.ratio, 2)} | ≥ ${s.target} | ${s.met ? "yes" : "no"} | ${n(s.p99Ratio, 2)} | ${n(s.ours.cpuUs)} + ${n(s.ours.dbCpuUs)} | ${n(s.base.cpuUs)} + ${n(s.base.dbCpuUs)} | ${n(s.cpuRatio, 2)} |`,
      );
    }
    console.log(
      "\nratio: median over rounds of req/s ÷ the baseline's in the same round; CPU µs/req: CPU time per answered request of the server process and of its PostgreSQL backends; CPU ratio: the baseline's total ÷ ours — steadier than req/s on a shared machine",
    );
  }
  if (pooled.length) {
    console.log("\n| through PgBouncer ÷ direct | conns | req/s ratio | per round | CPU ratio |");
    console.log("| --- | ---: | ---: | --- | ---: |");
    for (const q of pooled) {
      console.log(
        `| ${q.scenario} | ${q.connections} | ${n(q.rpsQuotient, 2)} | ${q.quotients.map((x) => n(x, 2)).join(" / ")} | ${n(q.cpuQuotient, 2)} |`,
      );
    }
  }
  for (const [name, value] of Object.entries(extras)) console.log(`${name}: ${JSON.stringify(value)}`);
  if (args.has("json")) {
    const dir = join(root, "bench", "results");
    if (!existsSync(dir)) mkdirSync(dir, { recursive: true });
    const file = join(dir, `bench-${new Date().toISOString().replace(/[:.]/g, "-")}.json`);
    writeFileSync(
      file,
      `${JSON.stringify({ at: new Date().toISOString(), database: dbUrl.replace(/\/\/[^@]*@/, "//"), rounds: ROUNDS, durationS: DURATION_S, population: POPULATION, pgbouncer: PGBOUNCER, pinning, bare: bareRows, scenarios: summaries, pooledAgainstDirect: pooled, extras }, null, 2)}\n`,
    );
    console.log(`\nJSON: ${file}`);
  }
}
