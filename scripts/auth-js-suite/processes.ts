/**
 * The authsvc processes of a suite run: the built server (`apps/http/dist/main.js`) with exactly the
 * translated environment, its log in a file of the run's folder, ready once `GET /health` (under its base path) answers 200.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { closeSync, openSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import type { SuiteServer } from "./compose.js";

export const SERVER_ENTRY = fileURLToPath(new URL("../../apps/http/dist/main.js", import.meta.url));

export interface Running {
  readonly server: SuiteServer;
  readonly logFile: string;
  /** The warnings the server logged at start (unknown or GoTrue-only variables, …). */
  warnings(): string[];
  stop(): Promise<void>;
}

function logLines(file: string): Record<string, unknown>[] {
  const lines: Record<string, unknown>[] = [];
  for (const line of readFileSync(file, "utf8").split("\n")) {
    if (!line.startsWith("{")) continue;
    try {
      lines.push(JSON.parse(line) as Record<string, unknown>);
    } catch {
      // A line still being written: read again on the next look.
    }
  }
  return lines;
}

/** Starts one server and resolves once it answers `GET /health`; rejects if it exits first. */
export async function startSuiteServer(server: SuiteServer, logDir: string): Promise<Running> {
  const logFile = join(logDir, `${server.name}-${server.port}.log`);
  const out = openSync(logFile, "w");
  // The log goes to a file, not a pipe: a pipe drained late by this process would stall the server.
  const child: ChildProcess = spawn(process.execPath, [SERVER_ENTRY], {
    env: { PATH: process.env.PATH ?? "", AUTHSVC_LOG_FORMAT: "json", ...server.env },
    stdio: ["ignore", out, out],
  });
  closeSync(out);
  let exit: string | undefined;
  const exited = new Promise<void>((resolve) =>
    child.once("exit", (code, signal) => {
      exit = signal ?? String(code);
      resolve();
    }),
  );
  const running: Running = {
    server,
    logFile,
    warnings: () =>
      logLines(logFile)
        .filter((line) => line.level === "warn" || line.level === 40)
        .map((line) => String(line.msg)),
    async stop() {
      if (exit !== undefined) return;
      child.kill("SIGTERM");
      const killer = setTimeout(() => child.kill("SIGKILL"), 10_000);
      await exited;
      clearTimeout(killer);
    },
  };
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (exit !== undefined) {
      throw new Error(`${server.name} (port ${server.port}) exited with ${exit}; see ${logFile}`);
    }
    try {
      const res = await fetch(`http://127.0.0.1:${server.port}${server.basePath ?? ""}/health`);
      if (res.status === 200) return running;
    } catch {
      // Not listening yet.
    }
    await sleep(100);
  }
  await running.stop();
  throw new Error(`${server.name} (port ${server.port}) did not answer /health within 60 s; see ${logFile}`);
}
