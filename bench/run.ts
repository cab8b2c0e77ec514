/**
 * `npm run bench [-- options]`: authsvc's hot endpoints next to hand-written baselines on the same stack
 * (bench/bare-server.ts), one server process each, over the same PostgreSQL database, measured in
 * interleaved rounds (baseline and scenario alternate which goes first) and reported as medians with
 * the ratio of each scenario to its baseline — absolute numbers on a shared machine are noise, ratios
 * measured in the same minute are not. docs/benchmarks.md describes the method and the targets.
 *
 * Options (all optional):
 *   --scenarios=user,refresh,password,signup   which scenarios (default: all four)
 *   --connections=16,64                         concurrency levels (default: 16,64)
 *   --rounds=3 --duration=5                     interleaved rounds, seconds per run
 *   --extras=admin,decay,rss,mixed,start        the other targets (default: none; `all` for every one)
 *   --population=10000                          other users, each with an identity, a session and ten
 *                                               refresh tokens (nine revoked), in the database before the
 *                                               run (0 for an empty database; test/support/population.ts)
 *   --tokens-per-session=10                     refresh tokens of each of those sessions
 *   --scenarios=none                            no scenario: only the extras
 *   --start-runs=3                              fresh/restart pairs measured by the `start` extra
 *   --telemetry                                 also compare GET /user with telemetry off / on
 *   --pool=6                                    both servers' database pool size (default: 10, each one's default)
 *   --pgbouncer                                 both servers through a PgBouncer in transaction mode
 *                                               (/usr/sbin/pgbouncer, started on a free loopback port)
 *   --json                                      write the results as JSON too (the path is printed)
 *
 * Profiles: BENCH_SERVER_NODE_ARGS="--cpu-prof --cpu-prof-dir=DIR" starts both servers with those Node
 * options (each writes its profile when it stops).
 *
 * Database: BENCH_DATABASE_URL, else a fresh database on the PostgreSQL at 127.0.0.1:5432. With
 * `taskset` and two or more cores, servers run on core 0 and this process (autocannon) on core 1.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import {
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import { startPgBouncer } from "../test/support/pgbouncer.js";
import { populate } from "../test/support/population.js";
import { adminList } from "./admin-list.js";
import { keepAliveLoad } from "./keep-alive-clients.js";
import { compareGetUser, otlpSink, telemetryEnv, type Variant } from "./telemetry.js";

const root = fileURLToPath(new URL("..", import.meta.url));
const args = new Map(
  process.argv.slice(2).map((a) => {
    const [k = "", v = "true"] = a.replace(/^--/, "").split("=");
    return [k, v] as const;
  }),
);
const list = (name: string, fallback: string) => (args.get(name) ?? fallback).split(",").filter(Boolean);
const DURATION_S = Number(args.get("duration") ?? process.env.BENCH_DURATION ?? 5);
const ROUNDS = Number(args.get("rounds") ?? 3);
const CONNECTIONS = list("connections", process.env.BENCH_CONNECTIONS ?? "16,64").map(Number);
// `--scenarios=none`: only the extras (with `--extras=start` alone, no PostgreSQL is needed at all).
const SCENARIOS = list("scenarios", "user,refresh,password,signup").filter((s) => s !== "none");
const extrasArg = list("extras", "");
const POPULATION = Number(args.get("population") ?? 10_000);
// Both servers' database pool size (default: each one's own default, 10 for both).
const POOL = args.get("pool");
// Both servers reach the database through a PgBouncer in transaction mode that the bench starts.
const PGBOUNCER = args.has("pgbouncer");
const EXTRAS = extrasArg.includes("all") ? ["admin", "decay", "rss", "mixed", "start"] : extrasArg;

const PASSWORD = "bench-password";
const SECRET = "a-benchmark-secret-of-at-least-32-characters";
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
};
const log = (line: string) => process.stderr.write(`${line}\n`);
/** Where the servers' standard output goes (removed at the end). */
const logDir = mkdtempSync(join(tmpdir(), "authsvc-bench-logs-"));

// ---- processes and cores -------------------------------------------------------------------------

const pinning = (() => {
  if (availableParallelism() < 2) return false;
  try {
    execFileSync("taskset", ["-V"], { stdio: "ignore" });
    // autocannon runs in this process: every thread of it onto core 1, servers onto core 0.
    execFileSync("taskset", ["-a", "-cp", "1", String(process.pid)], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
})();

interface Server {
  child: ChildProcess;
  url: string;
  pid: number;
}

/**
 * Starts a server process (on core 0) and resolves with the URL of its first JSON line carrying one.
 * Its standard output goes to a file, not a pipe: the server logs synchronously, and a pipe that this
 * busy process drains late would stall it — a cost of the bench, not of the server.
 */
async function startServer(script: string[], env: Record<string, string>): Promise<Server> {
  // BENCH_SERVER_NODE_ARGS: Node options for every server, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`.
  const args = [...(process.env.BENCH_SERVER_NODE_ARGS?.split(" ").filter(Boolean) ?? []), ...script];
  const [command, argv] = pinning
    ? ["taskset", ["-c", "0", process.execPath, ...args]]
    : [process.execPath, args];
  const logFile = join(logDir, `server-${Date.now()}-${Math.random().toString(36).slice(2)}.log`);
  const out = openSync(logFile, "w");
  const child = spawn(command as string, argv as string[], {
    cwd: root,
    env: { PATH: process.env.PATH ?? "", ...env },
    stdio: ["ignore", out, "inherit"],
  });
  closeSync(out);
  let exited: number | null | undefined;
  child.once("exit", (code) => {
    exited = code;
  });
  for (const began = Date.now(); Date.now() - began < 60_000; ) {
    if (exited !== undefined) throw new Error(`${args.join(" ")} exited with ${exited}`);
    for (const line of readFileSync(logFile, "utf8").split("\n")) {
      if (!line.startsWith("{")) continue;
      const parsed = JSON.parse(line) as { url?: string };
      if (parsed.url) {
        return { child, url: parsed.url.replace("0.0.0.0", "127.0.0.1"), pid: child.pid as number };
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  child.kill("SIGKILL");
  throw new Error(`${args.join(" ")} did not start within 60 s`);
}

async function stop(server: Server | undefined) {
  if (!server || server.child.exitCode !== null) return;
  const exited = new Promise((resolve) => server.child.once("exit", resolve));
  server.child.kill("SIGTERM");
  await exited;
}

function psql(command: string) {
  execFileSync("psql", ["-q", "-h", "127.0.0.1", "-U", "postgres", "-d", "postgres", "-c", command], {
    stdio: "ignore",
  });
}

/** The database of this run (set by `benchDatabase`). */
let benchDbUrl = "postgres://127.0.0.1/postgres";

function benchDatabase(): { url: string; drop(): void } {
  if (process.env.BENCH_DATABASE_URL) return { url: process.env.BENCH_DATABASE_URL, drop() {} };
  const name = `authsvc_bench_${Date.now()}`;
  try {
    psql(`create database ${name}`);
  } catch {
    throw new Error("the bench needs PostgreSQL: set BENCH_DATABASE_URL or run one on 127.0.0.1:5432");
  }
  benchDbUrl = `postgres://postgres@127.0.0.1:5432/${name}`;
  return {
    url: benchDbUrl,
    drop: () => psql(`drop database ${name} with (force)`),
  };
}

/** The process's resident set size in MB (Linux), or NaN. */
function rssMb(pid: number): number {
  try {
    const kb = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
    return Number(kb) / 1024;
  } catch {
    return Number.NaN;
  }
}

/** CPU time (user + system) of a process in microseconds (Linux /proc; USER_HZ 100). */
function cpuMicros(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
    return (Number(fields[11]) + Number(fields[12])) * 10_000;
  } catch {
    return Number.NaN;
  }
}

// ---- measuring ----------------------------------------------------------------------------------

interface Measured {
  rps: number;
  p99: number;
  errors: number;
  total: number;
  /** Server CPU time per answered request (µs): steadier than req/s on a shared machine. */
  cpuUs: number;
  /** CPU time of the database backends serving the server, per answered request (µs). */
  dbCpuUs: number;
}

/**
 * The backends serving `application` on this machine's PostgreSQL (their CPU is read from /proc):
 * the database's share of a request, which a local PostgreSQL spends on the same cores.
 */
function backendPids(application: string): number[] {
  const database = new URL(process.env.BENCH_DATABASE_URL ?? benchDbUrl).pathname.slice(1);
  try {
    const out = execFileSync(
      "psql",
      [
        "-At",
        "-h",
        "127.0.0.1",
        "-U",
        "postgres",
        "-d",
        "postgres",
        "-c",
        `select pid from pg_stat_activity where application_name = '${application}' and datname = '${database}'`,
      ],
      { encoding: "utf8" },
    );
    return out.split("\n").filter(Boolean).map(Number);
  } catch (error) {
    if (process.env.BENCH_DEBUG) log(String(error));
    return [];
  }
}

async function measure(pid: number, options: autocannon.Options, application?: string): Promise<Measured> {
  const backends = application ? backendPids(application) : [];
  if (process.env.BENCH_DEBUG) log(`backends of ${application}: ${backends.join(" ")}`);
  const dbCpu = () => backends.reduce((sum, p) => sum + (cpuMicros(p) || 0), 0);
  const cpuBefore = cpuMicros(pid);
  const dbBefore = dbCpu();
  const result = await autocannon({ duration: DURATION_S, connections: 16, ...options });
  const total = result.requests.total;
  return {
    rps: result.requests.average,
    p99: result.latency.p99,
    errors: result.non2xx + result.errors + result.timeouts,
    total,
    cpuUs: total > 0 ? (cpuMicros(pid) - cpuBefore) / total : Number.NaN,
    dbCpuUs: total > 0 && backends.length > 0 ? (dbCpu() - dbBefore) / total : Number.NaN,
  };
}

async function post(url: string, body: unknown): Promise<Record<string, string>> {
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  if (res.status !== 200) throw new Error(`${url}: ${res.status} ${await res.text()}`);
  return (await res.json()) as Record<string, string>;
}

const json = { "content-type": "application/json" };

/**
 * A refresh load: each in-flight request takes one live token of its own session and puts the
 * answer's token back, so every request is a real rotation. Tokens lost when a run stops mid-request
 * are replaced by `seed` before the next run.
 */
function refreshLoad(seed: () => Promise<string>) {
  const pool: string[] = [];
  return async (url: string, connections: number): Promise<autocannon.Options> => {
    const missing = connections - pool.length;
    // A seed that times out on a loaded machine is tried again, not the end of the run.
    const retried = async () => {
      for (let attempt = 1; ; attempt++) {
        try {
          return await seed();
        } catch (error) {
          if (attempt >= 5) throw error;
          await new Promise((resolve) => setTimeout(resolve, 200 * attempt));
        }
      }
    };
    const seeded = await Promise.all(Array.from({ length: Math.max(0, missing) }, retried));
    pool.push(...seeded);
    return {
      url,
      connections,
      requests: [
        {
          method: "POST",
          headers: json,
          setupRequest: (req) => ({ ...req, body: JSON.stringify({ refresh_token: pool.shift() }) }),
          onResponse: (status, body) => {
            if (status === 200) pool.push((JSON.parse(body) as { refresh_token: string }).refresh_token);
          },
        },
      ],
    };
  };
}

/** Sign-ups with addresses never used before. */
function signupLoad(prefix: string) {
  let n = 0;
  return (url: string, connections: number): autocannon.Options => ({
    url,
    connections,
    requests: [
      {
        method: "POST",
        headers: json,
        setupRequest: (req) => ({
          ...req,
          body: JSON.stringify({ email: `${prefix}-${Date.now()}-${++n}@example.com`, password: PASSWORD }),
        }),
      },
    ],
  });
}

interface Scenario {
  name: string;
  baseline: string;
  /** Target: minimum ratio of req/s to the baseline's. */
  target: number;
  ours(connections: number): Promise<autocannon.Options> | autocannon.Options;
  base(connections: number): Promise<autocannon.Options> | autocannon.Options;
}

interface Row {
  scenario: string;
  baseline: string;
  connections: number;
  target: number;
  ours: Measured[];
  base: Measured[];
}

function summary(row: Row) {
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

// ---- extras ---------------------------------------------------------------------------------------

/** Five back-to-back 10 s runs of GET /user at 64 connections: the fifth within 10% of the first. */
async function decay(server: Server, token: string) {
  const runs: { rps: number; p99: number; rssMb: number }[] = [];
  for (let i = 0; i < 5; i++) {
    const r = await autocannon({
      url: `${server.url}/user`,
      headers: { authorization: `Bearer ${token}` },
      connections: 64,
      duration: 10,
    });
    runs.push({ rps: r.requests.average, p99: r.latency.p99, rssMb: rssMb(server.pid) });
    log(`decay run ${i + 1}: ${r.requests.average.toFixed(0)} req/s`);
  }
  const fifthToFirst = (runs[4]?.rps ?? 0) / (runs[0]?.rps ?? 1);
  return { runs, fifthToFirst, met: fifthToFirst >= 0.9 };
}

/** The peak of the process's RSS while `work` runs, sampled every 100 ms. */
async function peakRss<T>(pid: number, work: () => Promise<T>): Promise<{ result: T; peakMb: number }> {
  let peak = rssMb(pid);
  const timer = setInterval(() => {
    peak = Math.max(peak, rssMb(pid));
  }, 100);
  try {
    const result = await work();
    return { result, peakMb: Math.max(peak, rssMb(pid)) };
  } finally {
    clearInterval(timer);
  }
}

/**
 * GET /user over 1,000 keep-alive connections for 10 s on a fresh process, twice: peak RSS and p99.
 * `storm` is autocannon opening all 1,000 at once while the load starts; Node accepts one pending
 * connection per event-loop iteration, so under load most of them are accepted late or not within
 * the run (`answered` counts the connections that got any answer), and its p99 measures that
 * connection storm. `held` opens and primes every connection first (bench/keep-alive-clients.ts),
 * then loads all 1,000: the steady state the targets are about (peak RSS ≤ 150 MB, p99 ≤ 1 s).
 */
async function rss(server: Server, token: string) {
  const idle = rssMb(server.pid);
  const answered = new Set<unknown>();
  const storm = await peakRss(server.pid, () => {
    // The instance autocannon returns is a promise of the result and an emitter of each response.
    const run = autocannon({
      url: `${server.url}/user`,
      headers: { authorization: `Bearer ${token}` },
      connections: 1000,
      duration: 10,
      timeout: 30,
    }) as unknown as Promise<autocannon.Result> & {
      on(event: "response", listener: (client: unknown) => void): void;
    };
    run.on("response", (client: unknown) => answered.add(client));
    return run;
  });
  const held = await peakRss(server.pid, () =>
    keepAliveLoad({
      url: `${server.url}/user`,
      headers: { authorization: `Bearer ${token}` },
      connections: 1000,
      durationS: 10,
    }),
  );
  const r = storm.result;
  return {
    idleMb: idle,
    storm: {
      peakMb: storm.peakMb,
      rps: r.requests.average,
      p99: r.latency.p99,
      answered: answered.size,
      errors: r.non2xx + r.errors + r.timeouts,
    },
    held: {
      peakMb: held.peakMb,
      rps: held.result.rps,
      p50: held.result.p50,
      p99: held.result.p99,
      answered: held.result.answered,
      errors: held.result.errors,
      primeMs: held.result.primeMs,
    },
    met: Math.max(storm.peakMb, held.peakMb) <= 150 && held.result.p99 <= 1000,
  };
}

/** GET /user p99 alone, then while 16 connections of password sign-ins saturate the hash pool. */
async function mixed(server: Server, token: string) {
  const user = {
    url: `${server.url}/user`,
    headers: { authorization: `Bearer ${token}` },
    connections: 16,
    duration: DURATION_S,
  };
  const alone = await autocannon(user);
  const [loaded, signins] = await Promise.all([
    autocannon(user),
    autocannon({
      url: `${server.url}/token?grant_type=password`,
      method: "POST",
      headers: json,
      body: JSON.stringify({ email: "bench@example.com", password: PASSWORD }),
      connections: 16,
      duration: DURATION_S,
    }),
  ]);
  const ratio = loaded.latency.p99 / alone.latency.p99;
  return {
    aloneP99: alone.latency.p99,
    loadedP99: loaded.latency.p99,
    signinRps: signins.requests.average,
    ratio,
    met: ratio <= 2,
  };
}

/** CPU time (user + system, ms) a process has used so far; undefined where /proc is missing. */
function cpuMs(pid: number): number | undefined {
  try {
    // Fields after the command name (which may hold spaces, hence the split on ") "): utime is the
    // 12th, stime the 13th; both in clock ticks, 100 a second on Linux.
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return undefined;
  }
}

const loadAverage = () => readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");

/**
 * `node apps/http/dist/main.js` on the embedded database: time until /health answers 200, and the CPU
 * time the server used until then (less noisy than the wall time on a shared machine), on a fresh data
 * folder and on a restart, `--start-runs` pairs.
 */
async function start() {
  const runs = Number(args.get("start-runs") ?? 3);
  const samples: { fresh: number[]; restart: number[]; freshCpu: number[]; restartCpu: number[] } = {
    fresh: [],
    restart: [],
    freshCpu: [],
    restartCpu: [],
  };
  for (let run = 0; run < runs; run++) {
    const dataDir = mkdtempSync(join(tmpdir(), "authsvc-bench-start-"));
    try {
      // The first start creates the data folder and migrates; the second is a restart.
      for (const label of ["fresh", "restart"] as const) {
        const began = performance.now();
        const server = await startServer(["apps/http/dist/main.js"], {
          AUTHSVC_API_HOST: "127.0.0.1",
          PORT: "0",
          AUTHSVC_DATA_DIR: dataDir,
          AUTHSVC_JWT_SECRET: SECRET,
          AUTHSVC_SITE_URL: "http://localhost:3000",
        });
        for (;;) {
          const res = await fetch(`${server.url}/health`).catch(() => null);
          if (res?.status === 200) break;
          await new Promise((r) => setTimeout(r, 20));
        }
        const ms = performance.now() - began;
        const cpu = cpuMs(server.pid);
        samples[label].push(ms);
        if (cpu !== undefined) samples[label === "fresh" ? "freshCpu" : "restartCpu"].push(cpu);
        log(
          `start (${label}) ${run + 1}/${runs}: ${ms.toFixed(0)} ms, CPU ${cpu ?? "-"} ms, load ${loadAverage()}`,
        );
        await stop(server);
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
  const freshMs = median(samples.fresh);
  const restartMs = median(samples.restart);
  return {
    freshMs,
    restartMs,
    freshCpuMs: median(samples.freshCpu),
    restartCpuMs: median(samples.restartCpu),
    runs: samples,
    met: freshMs <= 3000 && restartMs <= 3000,
  };
}

// ---- main -----------------------------------------------------------------------------------------

async function main() {
  if (SCENARIOS.length === 0 && !args.has("telemetry") && EXTRAS.every((extra) => extra === "start")) {
    // Only the start times: the embedded database, no PostgreSQL, no baseline server.
    try {
      const extras = EXTRAS.length ? { start: await start() } : {};
      for (const [name, value] of Object.entries(extras)) console.log(`${name}: ${JSON.stringify(value)}`);
    } finally {
      rmSync(logDir, { recursive: true, force: true });
    }
    return;
  }
  const db = benchDatabase();
  const bouncer = PGBOUNCER ? await startPgBouncer(db.url, { poolSize: 20 }) : undefined;
  // What the servers connect to; the bench itself (population, CPU of the backends) goes direct.
  const serverDbUrl = bouncer?.url ?? db.url;
  const dataDir = mkdtempSync(join(tmpdir(), "authsvc-bench-"));
  const env: Record<string, string> = {
    AUTHSVC_API_HOST: "127.0.0.1",
    PORT: "0",
    // The default level: the request log is part of the cost. Also the line that gives the URL.
    AUTHSVC_LOG_LEVEL: "info",
    AUTHSVC_MAILER_AUTOCONFIRM: "true",
    AUTHSVC_DATA_DIR: dataDir,
    AUTHSVC_SITE_URL: "http://localhost:3000",
    AUTHSVC_API_EXTERNAL_URL: "http://localhost:9999",
    AUTHSVC_JWT_SECRET: SECRET,
    DATABASE_URL: serverDbUrl,
    ...(bouncer ? { AUTHSVC_DB_PREPARED_STATEMENTS: "false" } : {}),
    ...(POOL ? { AUTHSVC_DB_MAX_POOL_SIZE: POOL } : {}),
  };
  let server: Server | undefined;
  let bare: Server | undefined;
  const extra: Server[] = [];
  const rows: Row[] = [];
  const extras: Record<string, unknown> = {};
  try {
    server = await startServer(["apps/http/dist/main.js"], env);
    const ours = server;
    // After authsvc has migrated the database: the baselines use its tables.
    extras.population = await populate(db.url, {
      count: POPULATION,
      tokensPerSession: Number(args.get("tokens-per-session") ?? 10),
      log,
    });
    bare = await startServer(["--import", "tsx", "bench/bare-server.ts"], {
      DATABASE_URL: serverDbUrl,
      ...(bouncer ? { DB_PREPARED_STATEMENTS: "false" } : {}),
      JWT_SECRET: SECRET,
      ...(POOL ? { DB_MAX_POOL_SIZE: POOL } : {}),
    });
    const baseUrl = bare.url;
    const session = await post(`${ours.url}/signup`, { email: "bench@example.com", password: PASSWORD });
    const token = session.access_token as string;
    log(`servers up${pinning ? " (servers on core 0, load on core 1)" : ""}`);

    const oursRefresh = refreshLoad(
      async () =>
        (
          await post(`${ours.url}/token?grant_type=password`, {
            email: "bench@example.com",
            password: PASSWORD,
          })
        ).refresh_token as string,
    );
    const baseRefresh = refreshLoad(
      async () => (await post(`${baseUrl}/sessions`, { email: "bench@example.com" })).refresh_token as string,
    );
    const password = (url: string, connections: number): autocannon.Options => ({
      url,
      connections,
      method: "POST",
      headers: json,
      body: JSON.stringify({ email: "bench@example.com", password: PASSWORD }),
    });
    const scenarios: Record<string, Scenario> = {
      user: {
        name: "GET /user",
        baseline: "(b) jose verify + PK select",
        target: 0.6,
        ours: (connections) => ({
          url: `${ours.url}/user`,
          connections,
          headers: { authorization: `Bearer ${token}` },
        }),
        base: (connections) => ({
          url: `${baseUrl}/user`,
          connections,
          headers: { authorization: `Bearer ${token}` },
        }),
      },
      refresh: {
        name: "refresh grant",
        baseline: "(c) 3-statement rotation + sign",
        target: 1.0,
        ours: (connections) => oursRefresh(`${ours.url}/token?grant_type=refresh_token`, connections),
        base: (connections) => baseRefresh(`${baseUrl}/refresh`, connections),
      },
      password: {
        name: "password grant",
        baseline: "(d) argon2id verify + select + insert",
        target: 0.85,
        ours: (connections) => password(`${ours.url}/token?grant_type=password`, connections),
        base: (connections) => password(`${baseUrl}/password`, connections),
      },
      signup: {
        name: "sign-up",
        baseline: "(e) argon2id hash + inserts",
        target: 0.8,
        ours: (connections) => signupLoad("ours")(`${ours.url}/signup`, connections),
        base: (connections) => signupLoad("base")(`${baseUrl}/signup`, connections),
      },
    };
    const chosen = args.has("telemetry") && !args.has("scenarios") ? [] : SCENARIOS;

    // (a): the bare route, once per concurrency level, for scale.
    const bareRows: { connections: number; rps: number; p99: number }[] = [];
    for (const connections of chosen.length ? CONNECTIONS : []) {
      const m = await measure(bare.pid, { url: `${baseUrl}/bare`, connections });
      bareRows.push({ connections, rps: m.rps, p99: m.p99 });
    }
    for (const connections of CONNECTIONS) {
      for (const key of chosen) {
        const s = scenarios[key];
        if (!s) throw new Error(`unknown scenario ${key} (user, refresh, password, signup)`);
        const row: Row = {
          scenario: s.name,
          baseline: s.baseline,
          connections,
          target: s.target,
          ours: [],
          base: [],
        };
        // A short warm-up of each side first: pool connections opened, code compiled.
        await autocannon({ ...(await s.base(connections)), duration: 1 });
        await autocannon({ ...(await s.ours(connections)), duration: 1 });
        for (let round = 0; round < ROUNDS; round++) {
          // Alternate which of the pair goes first, so neither always follows the other.
          const pair = [
            async () =>
              row.base.push(await measure(bare?.pid ?? 0, await s.base(connections), "bench-baseline")),
            async () => row.ours.push(await measure(ours.pid, await s.ours(connections), "authsvc")),
          ];
          for (const run of round % 2 ? pair.reverse() : pair) await run();
          log(
            `${s.name} @${connections}, round ${round + 1}: ${row.ours.at(-1)?.rps.toFixed(0)} vs ${row.base.at(-1)?.rps.toFixed(0)} req/s`,
          );
        }
        rows.push(row);
      }
    }

    if (EXTRAS.includes("admin")) {
      extras.admin = await adminList({
        url: ours.url,
        databaseUrl: db.url,
        secret: SECRET,
        durationS: DURATION_S,
      });
    }
    if (EXTRAS.includes("decay")) extras.decay = await decay(ours, token);
    if (EXTRAS.includes("mixed")) extras.mixed = await mixed(ours, token);
    if (EXTRAS.includes("rss")) {
      // A server of its own: the peak is this scenario's, not the residue of the runs before.
      const fresh = await startServer(["apps/http/dist/main.js"], env);
      extra.push(fresh);
      const t = (
        await post(`${fresh.url}/token?grant_type=password`, {
          email: "bench@example.com",
          password: PASSWORD,
        })
      ).access_token as string;
      extras.rss = await rss(fresh, t);
    }
    if (EXTRAS.includes("start")) extras.start = await start();

    if (args.has("telemetry")) {
      const sink = await otlpSink();
      const on = await startServer(["apps/http/dist/main.js"], { ...env, ...telemetryEnv(sink.url) });
      extra.push(on);
      const signUp = async (url: string, name: string) =>
        (await post(`${url}/signup`, { email: `bench-${name}@example.com`, password: PASSWORD }))
          .access_token as string;
      const variants: Variant[] = [
        { name: "telemetry off", url: ours.url, token, pid: ours.pid },
        { name: "traces + metrics on (OTLP)", url: on.url, token: await signUp(on.url, "on"), pid: on.pid },
      ];
      const baselineMain = process.env.BENCH_BASELINE_MAIN;
      if (baselineMain) {
        const baseline = await startServer([baselineMain], env);
        extra.push(baseline);
        variants.push({
          name: "baseline build, off",
          url: baseline.url,
          token: await signUp(baseline.url, "base"),
          pid: baseline.pid,
        });
      }
      await compareGetUser(variants, ROUNDS, (options) => measure(0, { duration: DURATION_S, ...options }));
      sink.close();
    }

    report(db.url, bareRows, rows.map(summary), extras);
  } finally {
    for (const s of extra) await stop(s);
    await stop(server);
    await stop(bare);
    await bouncer?.stop();
    db.drop();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(logDir, { recursive: true, force: true });
  }
}

function report(
  dbUrl: string,
  bareRows: { connections: number; rps: number; p99: number }[],
  summaries: ReturnType<typeof summary>[],
  extras: Record<string, unknown>,
) {
  const n = (x: number, d = 0) => (Number.isFinite(x) ? x.toFixed(d) : "-");
  console.log(
    `\nauthsvc benchmark: ${ROUNDS} interleaved rounds × ${DURATION_S}s, medians; PostgreSQL with ${POPULATION} other users${PGBOUNCER ? ", through PgBouncer (transaction mode)" : ""}; ${pinning ? "servers on core 0, load generator on core 1" : "no core pinning"}\n`,
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
  for (const [name, value] of Object.entries(extras)) console.log(`${name}: ${JSON.stringify(value)}`);
  if (args.has("json")) {
    const dir = join(root, "bench", "results");
    if (!existsSync(dir)) mkdirSync(dir, { recursive: true });
    const file = join(dir, `bench-${new Date().toISOString().replace(/[:.]/g, "-")}.json`);
    writeFileSync(
      file,
      `${JSON.stringify({ at: new Date().toISOString(), database: dbUrl.replace(/\/\/[^@]*@/, "//"), rounds: ROUNDS, durationS: DURATION_S, population: POPULATION, pgbouncer: PGBOUNCER, pinning, bare: bareRows, scenarios: summaries, extras }, null, 2)}\n`,
    );
    console.log(`\nJSON: ${file}`);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
