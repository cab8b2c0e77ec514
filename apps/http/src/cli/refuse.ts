import type { Command } from "./command.js";

/** Exit code of a refused command line: unknown command, unknown option, missing or extra argument. */
export const REFUSED = 2;

/** Writes why `command` refused its arguments, then its usage, to stderr; resolves to exit code 2. */
export function refuse(command: Pick<Command, "name" | "usage">, why: string): number {
  process.stderr.write(`authsvc ${command.name}: ${why}\n${command.usage}\n`);
  return REFUSED;
}

/** Refuses any argument: for the commands that take none. */
export function refuseArguments(
  command: Pick<Command, "name" | "usage">,
  args: readonly string[],
): number | undefined {
  const [first] = args;
  if (first === undefined) return undefined;
  return refuse(command, first.startsWith("-") ? `unknown option ${first}` : `unexpected argument ${first}`);
}
