import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { readIfExists } from "./daemon.js";
import { recordServer } from "./served-apis.js";

/** The built server, as `npm start` runs it. `npm test` builds first (pretest). */
export const SERVER_ENTRY = fileURLToPath(new URL("../../apps/http/dist/main.js", import.meta.url));

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface ServerProcess {
  /** Where it listens, e.g. http://127.0.0.1:40123. */
  url: string;
  /** Its process id. */
  pid: number;
  /** Every JSON log line written so far. */
  lines(): Record<string, unknown>[];
  stderr(): string;
  /** Sends `signal` and resolves with the exit and how long it took. */
  stop(signal?: NodeJS.Signals): Promise<Exit & { ms: number }>;
}

interface Spawned {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<Exit>;
}

/**
 * Every server this test file started that has not exited yet. A test that times out while a server
 * is starting never gets the handle to stop it, and a worker's end does not end its children: the
 * end-to-end tier's setup (stop-servers.ts) kills what is left after each file.
 */
const running = new Set<ChildProcess>();

/** Kills every server of this file still running; for the tier's setup, after the file's own hooks. */
export function killRunningServers(): void {
  for (const child of running) child.kill("SIGKILL");
  running.clear();
}

/**
 * Runs the server with exactly `env` (plus PATH): nothing leaks in from the test's own environment,
 * so each test states the whole configuration it relies on.
 */
function spawnServer(
  env: Record<string, string>,
  args: string[],
  cwd: string,
  entry = SERVER_ENTRY,
): Spawned {
  const child = spawn(process.execPath, [entry, ...args], {
    cwd,
    env: { PATH: process.env.PATH ?? "", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  running.add(child);
  child.once("exit", () => running.delete(child));
  let out = "";
  let err = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    out += chunk.toString();
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    err += chunk.toString();
  });
  const exited = new Promise<Exit>((resolve) =>
    child.once("close", (code, signal) => resolve({ code, signal })),
  );
  return { child, stdout: () => out, stderr: () => err, exited };
}

/** The complete JSON lines of a log (a line still being written is left for the next look). */
export function parseLines(text: string): Record<string, unknown>[] {
  return text
    .split("\n")
    .slice(0, -1)
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** Runs a command of the server to completion (`migrate`, or a start expected to fail). */
export async function runServer(
  env: Record<string, string>,
  options: { args?: string[]; cwd: string },
): Promise<Exit & { stdout: string; stderr: string }> {
  const spawned = spawnServer(env, options.args ?? [], options.cwd);
  const exit = await spawned.exited;
  return { ...exit, stdout: spawned.stdout(), stderr: spawned.stderr() };
}

/**
 * Starts the server and resolves once it logs where it listens (PORT=0 picks a free port). With
 * `logFile`, the log lines are read from that file (LOG_FILE) instead of standard output; with `entry`,
 * another build of the server is run (an installed package's `bin/authsvc.js`).
 */
export async function startServer(
  env: Record<string, string>,
  options: { cwd: string; logFile?: string; entry?: string },
): Promise<ServerProcess> {
  const spawned = spawnServer(env, [], options.cwd, options.entry);
  const logText = () => (options.logFile ? readIfExists(options.logFile) : spawned.stdout());
  const url = await new Promise<string>((resolve, reject) => {
    const check = () => {
      const listening = parseLines(logText()).find((line) => typeof line.url === "string");
      if (!listening) return;
      clearInterval(poll);
      resolve(String(listening.url).replace("0.0.0.0", "127.0.0.1"));
    };
    // A log file gives no event to wait on, so it is looked at every 20 ms until the line appears.
    const poll = setInterval(check, 20);
    void spawned.exited.then((exit) => {
      clearInterval(poll);
      reject(new Error(`server exited before listening (${JSON.stringify(exit)}): ${spawned.stderr()}`));
    });
  });
  recordServer(url, env);
  return {
    url,
    pid: spawned.child.pid ?? 0,
    lines: () => parseLines(logText()),
    stderr: spawned.stderr,
    async stop(signal = "SIGTERM") {
      const started = performance.now();
      spawned.child.kill(signal);
      const exit = await spawned.exited;
      return { ...exit, ms: performance.now() - started };
    },
  };
}
