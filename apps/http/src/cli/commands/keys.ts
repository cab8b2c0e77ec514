import { KEYS_USAGE, keysCommand } from "../../keys-command.js";
import type { Command } from "../command.js";
import { environment } from "../environment.js";

/** `authsvc keys …`: needs no configuration and no database; prints a value for AUTHSVC_JWT_KEYS. */
export const keys: Command = {
  name: "keys",
  summary: "make and rotate signing keys for AUTHSVC_JWT_KEYS",
  usage: KEYS_USAGE,
  async run(args) {
    const outcome = keysCommand(args, environment());
    if (outcome.ok) {
      process.stdout.write(outcome.output);
      return 0;
    }
    process.stderr.write(`authsvc keys: ${outcome.error}\n${KEYS_USAGE}\n`);
    return 2;
  },
};
