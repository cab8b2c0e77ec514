#!/usr/bin/env node
import { COMMANDS } from "./cli/commands/index.js";
import { dispatch } from "./cli/dispatch.js";
import { readVersion } from "./composition/version.js";
import { maskUrlPasswords } from "./infrastructure/telemetry/url-password.js";

async function main(argv: readonly string[]): Promise<void> {
  const chosen = dispatch(argv, COMMANDS, readVersion());
  if (chosen.kind === "print") {
    (chosen.stream === "stdout" ? process.stdout : process.stderr).write(`${chosen.text}\n`);
    process.exitCode = chosen.exitCode;
    return;
  }
  const code = await chosen.command.run(chosen.args);
  if (code !== undefined) process.exitCode = code;
}

main(process.argv.slice(2)).catch((error: unknown) => {
  // Startup faults (database unreachable, migration failure) end the process; the message names the
  // cause, never the connection string's password.
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`authsvc: failed to start: ${maskUrlPasswords(message)}\n`);
  process.exit(1);
});
