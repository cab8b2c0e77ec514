/**
 * The bench's processes and readings: server processes pinned to core 0 (this process, autocannon,
 * on core 1), the run's database, and what /proc tells of a process's memory and CPU time.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { closeSync, mkdtempSync, openSync, readFileSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const root = fileURLToPath(new URL("..", import.meta.url));

export const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
};
export const log = (line: string) => process.stderr.write(`${line}\n`);
/** Where the servers' standard output goes (removed at the end). */
export const logDir = mkdtempSync(join(tmpdir(), "authsvc-bench-logs-"));

// ---- processes and cores -------------------------------------------------------------------------

export const pinning = (() => {
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

/**
 * Gives a process started from this one (pinned to core 1) every core back, as PostgreSQL has: a
 * PgBouncer on the load generator's core would measure autocannon's appetite, not the pooler.
 */
export function unpin(pid: number): void {
  if (!pinning) return;
  execFileSync("taskset", ["-a", "-cp", `0-${availableParallelism() - 1}`, String(pid)], { stdio: "ignore" });
}

export interface Server {
  child: ChildProcess;
  url: string;
  pid: number;
  /** Its standard output: the JSON log, and V8's lines with `--trace-gc-nvp`. */
  logFile: string;
}

/**
 * Starts a server process (on core 0) and resolves with the URL of its first JSON line carrying one.
 * Its standard output goes to a file, not a pipe: the server logs synchronously, and a pipe that this
 * busy process drains late would stall it — a cost of the bench, not of the server.
 */
export async function startServer(script: string[], env: Record<string, string>): Promise<Server> {
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
        const url = parsed.url.replace("0.0.0.0", "127.0.0.1");
        return { child, url, pid: child.pid as number, logFile };
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  child.kill("SIGKILL");
  throw new Error(`${args.join(" ")} did not start within 60 s`);
}

export async function stop(server: Server | undefined) {
  if (!server || server.child.exitCode !== null) return;
  const exited = new Promise((resolve) => server.child.once("exit", resolve));
  server.child.kill("SIGTERM");
  await exited;
}

export function psql(command: string) {
  execFileSync("psql", ["-q", "-h", "127.0.0.1", "-U", "postgres", "-d", "postgres", "-c", command], {
    stdio: "ignore",
  });
}

/** The database of this run (set by `benchDatabase`). */
let benchDbUrl = "postgres://127.0.0.1/postgres";

export function benchDatabase(): { url: string; drop(): void } {
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

export { cpuMicros, rssMb } from "./proc.js";

// ---- measuring ----------------------------------------------------------------------------------

export interface Measured {
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
export function backendPids(application: string): number[] {
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
