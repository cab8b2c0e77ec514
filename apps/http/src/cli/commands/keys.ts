import { configuredJwtSecret } from "../../composition/partial-load.js";
import type { Command } from "../command.js";
import { environment } from "../environment.js";
import { refuse } from "../refuse.js";
import { KEYS_USAGE, keysCommand } from "./key-sets.js";

/**
 * `authsvc keys …`: needs no database; prints a value for AUTHSVC_JWT_KEYS on stdout, and on stderr
 * what becomes of the API keys signed with the JWT secret.
 */
export const keys: Command = {
  name: "keys",
  summary: "make and rotate signing keys for AUTHSVC_JWT_KEYS",
  usage: KEYS_USAGE,
  async run(args) {
    const vars = environment();
    const outcome = keysCommand(args, vars, configuredJwtSecret(vars));
    if (!outcome.ok) return refuse(this, outcome.error);
    process.stdout.write(outcome.output);
    for (const note of outcome.notes) process.stderr.write(`authsvc keys: ${note}\n`);
    return 0;
  },
};
