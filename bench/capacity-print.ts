/** The `capacity` extra's tables on standard output, and the summary kept in the bench's report. */
import { type CapacityResult, capacity } from "./capacity.js";
import { DEFAULT_DEPLOYMENT, DEFAULT_PROFILE } from "./capacity-model.js";

const n = (x: number, digits = 0) =>
  Number.isFinite(x)
    ? x.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits })
    : "-";
const kb = (bytes: number) => n(bytes / 1024, 1);
const gb = (bytes: number) => n(bytes / 1024 ** 3, 1);

export function printCapacity(r: CapacityResult): void {
  const out = (line = "") => console.log(line);
  out("\ncapacity: per answered request (a fixed number of each, 16 connections)");
  out(
    "| operation | answered | errors | server µs | db µs | per server vCPU | per db vCPU | WAL bytes | of which FPI | commits | rows added |",
  );
  out("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |");
  for (const m of r.measured) {
    const v = r.perVcpu.find((p) => p.operation === m.operation);
    const rows = Object.entries(m.rows)
      .map(([table, k]) => `${table} ${n(k, 2)}`)
      .join(", ");
    out(
      `| ${m.operation} | ${m.answered} | ${m.errors} | ${n(m.serverUs)} | ${n(m.dbUs)} | ${n(v?.server ?? Number.NaN)} | ${n(v?.database ?? Number.NaN)} | ${n(m.walBytes)} | ${n(m.wal.fpiBytes / m.answered)} | ${n(m.commits, 2)} | ${rows} |`,
    );
  }
  if (r.measured.some((m) => m.wal.clusterWide))
    out("(WAL: pg_walinspect unavailable, the cluster's whole WAL: other databases' writes included)");
  for (const m of r.measured.filter((x) => x.operation === "refresh" || x.operation === "signup")) {
    const parts = Object.entries(m.wal.byRelation)
      .sort((a, b) => b[1] - a[1])
      .map(([relation, bytes]) => `${relation} ${n(bytes / m.answered)}`);
    out(`WAL bytes per ${m.operation} by relation: ${parts.join(", ")}`);
  }
  out("\n| table | rows | heap KB | indexes KB | total KB | written rows' size ÷ all | bytes per row |");
  out("| --- | ---: | ---: | ---: | ---: | ---: | ---: |");
  for (const t of r.tables)
    out(
      `| ${t.table} | ${t.rows} | ${kb(t.heapBytes)} | ${kb(t.indexBytes)} | ${kb(t.totalBytes)} | ${n(t.freshRowRatio, 2)} | ${n(t.bytesPerRow)} |`,
    );
  out(`\nsteady state per user (profile ${JSON.stringify(DEFAULT_PROFILE)}):`);
  out("| table | rows per user | bytes per user |");
  out("| --- | ---: | ---: |");
  for (const [table, rows] of Object.entries(r.rowsPerUser))
    out(`| ${table} | ${n(rows, 2)} | ${n(r.bytesPerUser.byTable[table] ?? Number.NaN)} |`);
  out(`| total | | ${n(r.bytesPerUser.total)} |`);
  out(`\nsizes at the busiest hour (deployment ${JSON.stringify(DEFAULT_DEPLOYMENT)}):`);
  out(
    "| users | sign-ups/s | password/s | refresh/s | GET /user/s | client_credentials/s | server vCPUs | instances | db cores busy | db cores | connections busy | pool | WAL MB/s | commits/s | storage GB |",
  );
  out(
    "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
  );
  for (const s of r.sizes) {
    const q = s.rates;
    out(
      `| ${n(s.users)} | ${n(q.signup, 1)} | ${n(q.password, 1)} | ${n(q.refresh)} | ${n(q.user)} | ${n(q.client_credentials)} | ${n(s.serverVcpus, 1)} | ${s.instances} | ${n(s.dbCoresBusy, 2)} | ${s.dbCores} | ${n(s.connectionsBusy, 1)} | ${s.poolSize} | ${n(s.walBytesPerSecond / 1e6, 2)} | ${n(s.commitsPerSecond)} | ${gb(s.users * r.bytesPerUser.total)} |`,
    );
  }
}

/** Runs the extra, prints its tables, and answers the figures the report keeps. */
export async function capacityExtra(ctx: Parameters<typeof capacity>[0]) {
  const result = await capacity(ctx);
  printCapacity(result);
  return {
    perVcpu: result.perVcpu,
    walBytes: Object.fromEntries(result.measured.map((m) => [m.operation, Math.round(m.walBytes)])),
    bytesPerUser: Math.round(result.bytesPerUser.total),
    sizes: result.sizes.map((s) => ({
      users: s.users,
      instances: s.instances,
      dbCores: s.dbCores,
      pool: s.poolSize,
    })),
  };
}
