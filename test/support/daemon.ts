import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { connect } from "node:net";

/**
 * What the starters of Debian's daemons (PgBouncer, nginx, etcd, Patroni) share: a foreground child
 * process whose standard error is kept, a wait until it answers (or a clear failure with its log,
 * leaving nothing behind), and a stop that waits for the exit.
 */

/** Whether something accepts TCP connections on the loopback `port`. */
export const accepts = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect({ host: "127.0.0.1", port });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });

/** The uid and gid of an account, or undefined. */
export function account(name: string): { uid: number; gid: number } | undefined {
  try {
    const uid = Number(execFileSync("id", ["-u", name], { encoding: "utf8" }).trim());
    const gid = Number(execFileSync("id", ["-g", name], { encoding: "utf8" }).trim());
    return { uid, gid };
  } catch {
    return undefined;
  }
}

/** Whether this process runs as root (PostgreSQL, PgBouncer and Patroni refuse to). */
export const runningAsRoot = () => process.getuid?.() === 0;

/** The contents of a file, or "" when it does not exist (yet). */
export function readIfExists(path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return "";
  }
}

/** `text` with `values` in place of its `{{NAME}}` placeholders; throws on one left unfilled. */
export function fillPlaceholders(text: string, values: Record<string, string>): string {
  return text.replace(/\{\{(\w+)\}\}/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`no value for the placeholder {{${name}}}`);
    return value;
  });
}

export interface Daemon {
  pid: number;
  /** Whether it has exited. */
  exited(): boolean;
  /** What it wrote to standard error so far. */
  stderr(): string;
  /** Sends `signal` (unless it already exited) and resolves once it has exited. */
  stop(signal: NodeJS.Signals): Promise<void>;
}

/** Starts `bin` with `args` in the foreground, its standard error kept. */
export function spawnDaemon(bin: string, args: string[], env?: NodeJS.ProcessEnv): Daemon {
  const child: ChildProcess = spawn(bin, args, { stdio: ["ignore", "ignore", "pipe"], env });
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  let exited = false;
  const gone = new Promise<void>((resolve) =>
    child.once("exit", () => {
      exited = true;
      resolve();
    }),
  );
  return {
    pid: child.pid ?? 0,
    exited: () => exited,
    stderr: () => stderr,
    async stop(signal) {
      if (!exited) child.kill(signal);
      await gone;
    },
  };
}

/**
 * Resolves once `ready()` answers true. When the daemon exits first or `timeoutMs` passes, kills it,
 * removes `dir` and throws with `log()` (read before the folder goes).
 */
export async function waitUntilReady(
  daemon: Daemon,
  ready: () => Promise<boolean>,
  failure: { what: string; dir: string; log: () => string; timeoutMs?: number },
): Promise<void> {
  for (const began = Date.now(); !(await ready()); ) {
    if (daemon.exited() || Date.now() - began > (failure.timeoutMs ?? 10_000)) {
      const log = failure.log();
      await daemon.stop("SIGKILL");
      rmSync(failure.dir, { recursive: true, force: true });
      throw new Error(`${failure.what} did not start:\n${log}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
