import { resolve } from "node:path";
import { parse } from "dotenv";
import { configuredJwtSecret } from "../../composition/partial-load.js";
import type { Command } from "../command.js";
import { environment } from "../environment.js";
import { refuse } from "../refuse.js";
import { envFileValue, readEnvFile, withVariable, writeEnvFile } from "./env-file.js";
import { KEYS_USAGE, keysCommand } from "./key-sets.js";

const KEYS_VARIABLE = "AUTHSVC_JWT_KEYS";

/** The arguments without `--write <file>` (or `--write=<file>`), and that file. */
export function writeTarget(args: readonly string[]): { rest: string[]; file?: string } | { error: string } {
  const rest: string[] = [];
  let file: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    const inline = arg.startsWith("--write=") ? arg.slice("--write=".length) : undefined;
    if (arg !== "--write" && inline === undefined) {
      rest.push(arg);
      continue;
    }
    if (file !== undefined) return { error: "--write given twice" };
    file = inline ?? args[++i];
    if (!file || file.startsWith("-")) return { error: "--write needs a file (.env)" };
  }
  return file === undefined ? { rest } : { rest, file };
}

/**
 * `authsvc keys …`: needs no database; prints a value for AUTHSVC_JWT_KEYS on stdout, or with
 * `--write <file>` edits it in that `.env` file (the set read from the file, not the environment),
 * and on stderr what becomes of the API keys signed with the JWT secret.
 */
export const keys: Command = {
  name: "keys",
  summary: "make and rotate signing keys for AUTHSVC_JWT_KEYS (printed, or written into a .env)",
  usage: KEYS_USAGE,
  async run(args) {
    const target = writeTarget(args);
    if ("error" in target) return refuse(this, target.error);
    const vars = environment();
    if (target.file === undefined) {
      const outcome = keysCommand(target.rest, vars, configuredJwtSecret(vars));
      if (!outcome.ok) return refuse(this, outcome.error);
      process.stdout.write(outcome.output);
      for (const note of outcome.notes) process.stderr.write(`authsvc keys: ${note}\n`);
      return 0;
    }
    const path = resolve(target.file);
    let text: string;
    try {
      text = readEnvFile(path);
    } catch (error) {
      process.stderr.write(
        `authsvc keys: ${path}: cannot be read (${(error as NodeJS.ErrnoException).code})\n`,
      );
      return 1;
    }
    // The set edited is the file's own: the environment may hold another (it wins when the server reads both).
    const inFile = parse(text);
    const fileVars = { ...vars, [KEYS_VARIABLE]: inFile[KEYS_VARIABLE] };
    const secret = inFile.AUTHSVC_JWT_SECRET ?? configuredJwtSecret(vars);
    const outcome = keysCommand(target.rest, fileVars, secret);
    if (!outcome.ok) return refuse(this, outcome.error);
    writeEnvFile(path, withVariable(text, KEYS_VARIABLE, outcome.output.trim()));
    const written = envFileValue(readEnvFile(path), KEYS_VARIABLE);
    process.stderr.write(`authsvc keys: ${KEYS_VARIABLE} written to ${path}; restart the server to use it\n`);
    if (process.env[KEYS_VARIABLE] !== undefined && process.env[KEYS_VARIABLE] !== written)
      process.stderr.write(
        `authsvc keys: ${KEYS_VARIABLE} is also set in the environment, which wins over ${path}: unset it\n`,
      );
    for (const note of outcome.notes) process.stderr.write(`authsvc keys: ${note}\n`);
    return 0;
  },
};
