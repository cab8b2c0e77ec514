/**
 * Two extras measured in quantities a loaded machine does not bend:
 * - `rss` (with extras.ts's peak at 1,000 connections): the idle memory of a fresh server with the
 *   default configuration and with every optional capability on, read by bench/memory-probe.mjs;
 * - `tail`: GET /user against the bare stack's GET /user at each `--connections`, on servers run with
 *   `--trace-gc-nvp`: the in-run p99 ratio; scavenges, mark-compacts and their pauses per 10,000
 *   requests; and the kilobytes each request allocates and leaves to the old generation (promoted),
 *   summed from V8's lines in each server's standard output.
 */
import { generateKeyPairSync } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import autocannon from "autocannon";
import { CONNECTIONS, DURATION_S, ROUNDS } from "./options.js";
import { log, median, rssMb, type Server, startServer, stop } from "./processes.js";

const PROBE = "./bench/memory-probe.mjs";

/** What memory-probe.mjs writes (bytes). */
interface Probe {
  rss: number;
  heapTotal: number;
  heapUsed: number;
  external: number;
}

/** Every optional capability on: Web3, passkeys, SAML; the OpenAPI description asked for once. */
const ALL_ON: Record<string, string> = {
  AUTHSVC_EXTERNAL_WEB3_ETHEREUM_ENABLED: "true",
  AUTHSVC_EXTERNAL_WEB3_SOLANA_ENABLED: "true",
  AUTHSVC_PASSKEY_ENABLED: "true",
  AUTHSVC_WEBAUTHN_RP_ID: "localhost",
  AUTHSVC_WEBAUTHN_RP_ORIGINS: "http://localhost:3000",
  AUTHSVC_MFA_WEB_AUTHN_ENROLL_ENABLED: "true",
  AUTHSVC_MFA_WEB_AUTHN_VERIFY_ENABLED: "true",
  AUTHSVC_SAML_ENABLED: "true",
  AUTHSVC_SAML_PRIVATE_KEY: generateKeyPairSync("rsa", { modulusLength: 2048 })
    .privateKey.export({ type: "pkcs1", format: "der" })
    .toString("base64"),
};

const mb = (bytes: number) => Math.round(bytes / 1e5) / 10;

/** A fresh server's memory `idleS` seconds after it listens (after one GET /openapi.json when `all`). */
async function idleOnce(env: Record<string, string>, all: boolean, idleS = 3) {
  const dir = mkdtempSync(join(tmpdir(), "authsvc-bench-memory-"));
  const out = join(dir, "probe.json");
  const server = await startServer(["--import", PROBE, "apps/http/dist/main.js"], {
    ...env,
    ...(all ? ALL_ON : {}),
    BENCH_MEMORY_PROBE: out,
  });
  try {
    if (all) await (await fetch(`${server.url}/openapi.json`)).arrayBuffer();
    await new Promise((resolve) => setTimeout(resolve, idleS * 1000));
    const rss = rssMb(server.pid);
    server.child.kill("SIGUSR2");
    for (let i = 0; i < 50; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      try {
        const probe = JSON.parse(readFileSync(out, "utf8")) as Probe;
        return { rssMb: rss, heapUsedMb: mb(probe.heapUsed), heapTotalMb: mb(probe.heapTotal) };
      } catch {}
    }
    return { rssMb: rss, heapUsedMb: Number.NaN, heapTotalMb: Number.NaN };
  } finally {
    await stop(server);
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Idle RSS and heap, the median of three fresh starts each: default configuration and all on. */
export async function idleMemory(env: Record<string, string>) {
  const result: Record<string, { rssMb: number; heapUsedMb: number; heapTotalMb: number }> = {};
  for (const [label, all] of [
    ["default", false],
    ["allOn", true],
  ] as const) {
    const runs = [];
    for (let i = 0; i < 3; i++) runs.push(await idleOnce(env, all));
    result[label] = {
      rssMb: median(runs.map((r) => r.rssMb)),
      heapUsedMb: median(runs.map((r) => r.heapUsedMb)),
      heapTotalMb: median(runs.map((r) => r.heapTotalMb)),
    };
    log(`idle memory (${label}): ${JSON.stringify(result[label])}`);
  }
  return result;
}

/**
 * Scavenges and mark-compacts in a `--trace-gc-nvp` log, from byte `from` on: each one's pause, and
 * the bytes the young generation took in since the previous collection (`allocated`) and moved to the
 * old one (`promoted`) — what survives young collections is what the full collections behind the
 * tail then collect.
 */
function gcLines(logFile: string, from: number) {
  const text = readFileSync(logFile, "utf8").slice(from);
  const field = (line: string, name: string) => Number(new RegExp(` ${name}=([0-9.]+)`).exec(line)?.[1] ?? 0);
  const scavenges: number[] = [];
  const markCompacts: number[] = [];
  let allocated = 0;
  let promoted = 0;
  for (const line of text.split("\n")) {
    const kind = / gc=(s|mc) /.exec(line)?.[1];
    if (kind === undefined) continue;
    (kind === "s" ? scavenges : markCompacts).push(field(line, "pause"));
    allocated += field(line, "allocated");
    if (kind === "s") promoted += field(line, "promoted");
  }
  return { scavenges, markCompacts, allocated, promoted };
}

const per10k = (count: number, requests: number) => (requests > 0 ? (count * 10_000) / requests : Number.NaN);

/** One run against `server`: p99 and the collections its log shows during the run. */
async function gcRun(server: Server, options: autocannon.Options) {
  const from = readFileSync(server.logFile, "utf8").length;
  const r = await autocannon({ duration: DURATION_S, ...options });
  const gc = gcLines(server.logFile, from);
  const total = r.requests.total;
  return {
    p99: r.latency.p99,
    rps: r.requests.average,
    scavengesPer10k: per10k(gc.scavenges.length, total),
    markCompactsPer10k: per10k(gc.markCompacts.length, total),
    scavengeMsPer10k: per10k(
      gc.scavenges.reduce((a, b) => a + b, 0),
      total,
    ),
    maxScavengeMs: Math.max(0, ...gc.scavenges),
    maxMarkCompactMs: Math.max(0, ...gc.markCompacts),
    allocatedKbPerRequest: total > 0 ? gc.allocated / total / 1024 : Number.NaN,
    promotedKbPerRequest: total > 0 ? gc.promoted / total / 1024 : Number.NaN,
  };
}

/**
 * GET /user on a fresh authsvc and the bare route on a fresh baseline, both with `--trace-gc-nvp`, in
 * alternating rounds at each concurrency: medians of the p99 ratio and of each side's GC figures.
 */
export async function tail(env: Record<string, string>, baseEnv: Record<string, string>, token: string) {
  const ours = await startServer(["--trace-gc-nvp", "apps/http/dist/main.js"], env);
  const bare = await startServer(["--trace-gc-nvp", "--import", "tsx", "bench/bare-server.ts"], baseEnv);
  try {
    const levels = [];
    for (const connections of CONNECTIONS) {
      const user = { url: `${ours.url}/user`, headers: { authorization: `Bearer ${token}` }, connections };
      // The bare stack's GET /user (bench/bare-server.ts (b)): the same token, verified and looked up.
      const base = { url: `${bare.url}/user`, headers: user.headers, connections };
      await autocannon({ ...user, duration: 1 });
      await autocannon({ ...base, duration: 1 });
      const runs: { ours: Awaited<ReturnType<typeof gcRun>>; bare: Awaited<ReturnType<typeof gcRun>> }[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        // Alternate the order, so that neither side always follows the other.
        if (round % 2) {
          const b = await gcRun(bare, base);
          runs.push({ bare: b, ours: await gcRun(ours, user) });
        } else {
          const o = await gcRun(ours, user);
          runs.push({ ours: o, bare: await gcRun(bare, base) });
        }
      }
      const m = (pick: (run: (typeof runs)[number]) => number) => median(runs.map(pick));
      const level = {
        connections,
        p99Ratio: m((r) => r.ours.p99 / r.bare.p99),
        rpsRatio: m((r) => r.ours.rps / r.bare.rps),
        ours: {
          scavengesPer10k: m((r) => r.ours.scavengesPer10k),
          markCompactsPer10k: m((r) => r.ours.markCompactsPer10k),
          scavengeMsPer10k: m((r) => r.ours.scavengeMsPer10k),
          maxScavengeMs: m((r) => r.ours.maxScavengeMs),
          maxMarkCompactMs: m((r) => r.ours.maxMarkCompactMs),
          allocatedKbPerRequest: m((r) => r.ours.allocatedKbPerRequest),
          promotedKbPerRequest: m((r) => r.ours.promotedKbPerRequest),
        },
        bare: {
          scavengesPer10k: m((r) => r.bare.scavengesPer10k),
          markCompactsPer10k: m((r) => r.bare.markCompactsPer10k),
          scavengeMsPer10k: m((r) => r.bare.scavengeMsPer10k),
          maxScavengeMs: m((r) => r.bare.maxScavengeMs),
          allocatedKbPerRequest: m((r) => r.bare.allocatedKbPerRequest),
          promotedKbPerRequest: m((r) => r.bare.promotedKbPerRequest),
        },
      };
      log(`tail @${connections}: ${JSON.stringify(level)}`);
      levels.push(level);
    }
    return { levels, met: levels.every((l) => l.p99Ratio <= 1.5) };
  } finally {
    await stop(ours);
    await stop(bare);
  }
}
