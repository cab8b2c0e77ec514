import { type ChildProcess, spawn } from "node:child_process";
import { SERVER_ENTRY } from "./server-process.js";

export interface TerminalRun {
  /** Everything written to the terminal so far, colours and carriage returns removed. */
  text(): string;
  /** Resolves once `pattern` appears in the text (or rejects after `timeoutMs`). */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<void>;
  /** Ends the run (SIGTERM to `script`, which hangs up the server's terminal, or to the server) and waits. */
  stop(): Promise<void>;
}

// The colour sequences (ESC [ … m) pino-pretty writes on a terminal.
const ANSI = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, "g");

/**
 * Runs the server with its standard output on a pseudo-terminal, as on a developer's screen:
 * util-linux `script` makes the terminal and copies it to a pipe the test reads. `env` is the whole
 * environment (plus PATH), as for the other server processes.
 */
export function runOnTerminal(env: Record<string, string>, cwd: string, terminal = true): TerminalRun {
  const command = `${JSON.stringify(process.execPath)} ${JSON.stringify(SERVER_ENTRY)}`;
  const options = { cwd, env: { PATH: process.env.PATH ?? "", TERM: "xterm", ...env } };
  // terminal false: the same run with standard output on a pipe, for comparison.
  const child: ChildProcess = terminal
    ? spawn("script", ["-qfec", command, "/dev/null"], { ...options, stdio: ["pipe", "pipe", "pipe"] })
    : spawn(process.execPath, [SERVER_ENTRY], { ...options, stdio: ["ignore", "pipe", "pipe"] });
  let raw = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    raw += chunk.toString();
  });
  let exited = false;
  const closed = new Promise<void>((resolve) =>
    child.once("close", () => {
      exited = true;
      resolve();
    }),
  );
  const text = () => raw.replace(ANSI, "").replace(/\r/g, "");
  return {
    text,
    waitFor(pattern, timeoutMs = 60_000) {
      return new Promise((resolve, reject) => {
        const started = Date.now();
        const poll = setInterval(() => {
          if (pattern.test(text())) {
            clearInterval(poll);
            resolve();
          } else if (exited || Date.now() - started > timeoutMs) {
            clearInterval(poll);
            reject(new Error(`${pattern} did not appear on the terminal:\n${text()}`));
          }
        }, 20);
      });
    },
    async stop() {
      child.kill("SIGTERM");
      await closed;
    },
  };
}
