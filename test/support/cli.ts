import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";

/** The `authsvc` command as package.json's `bin` names it: a script with a shebang, run directly. */
export const AUTHSVC_BIN = fileURLToPath(new URL("../../apps/http/bin/authsvc.js", import.meta.url));

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `authsvc <args>` (or `file`, e.g. a link to it) with exactly `env` plus PATH, as a shell
 * would: the file itself is executed, so its shebang and mode are part of what is tested.
 */
export function runCli(
  args: readonly string[],
  options: { env?: Record<string, string>; cwd: string; file?: string },
): Promise<CliRun> {
  return new Promise((resolve) => {
    execFile(
      options.file ?? AUTHSVC_BIN,
      [...args],
      { cwd: options.cwd, env: { PATH: process.env.PATH ?? "", ...options.env }, timeout: 60_000 },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === "number" ? error.code : null;
        resolve({ code, stdout, stderr });
      },
    );
  });
}
