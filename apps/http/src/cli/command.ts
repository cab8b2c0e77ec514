/**
 * One subcommand of `authsvc`: a plain object in `COMMANDS` (cli/commands/index.ts), so a new
 * command is a file in cli/commands/ and one entry in that list. `run` gets the arguments after
 * the command's name and resolves to the process's exit code; `--help` / `-h` is answered by the
 * dispatcher with `usage` before `run` is called.
 */
export interface Command {
  /** The word after `authsvc`. */
  readonly name: string;
  /** One line for the overview that `authsvc --help` prints. */
  readonly summary: string;
  /** The whole help text, starting with `usage: authsvc <name> …`. */
  readonly usage: string;
  /**
   * Runs the command. Resolves to the exit code (0 done, 1 failed, 2 refused arguments). A
   * long-running command (serve) resolves only when it has set up its own exit.
   */
  run(args: readonly string[]): Promise<number | undefined>;
}
