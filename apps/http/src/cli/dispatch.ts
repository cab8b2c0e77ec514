import type { Command } from "./command.js";

/** What `authsvc --help` (or an unknown command) prints. */
export function overview(commands: readonly Command[]): string {
  const width = Math.max(...commands.map((c) => c.name.length));
  const lines = commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`);
  return `usage: authsvc <command> [options]\n\ncommands:\n${lines.join("\n")}\n\n'authsvc <command> --help' tells more; 'authsvc --version' prints the version.`;
}

export type Dispatch =
  | { kind: "run"; command: Command; args: readonly string[] }
  | { kind: "print"; text: string; exitCode: 0 | 2; stream: "stdout" | "stderr" };

/**
 * Picks the command for `argv` (the arguments after `authsvc`); `serve` when none is given.
 * `--version` (or `-v`) prints `version`.
 */
export function dispatch(
  argv: readonly string[],
  commands: readonly Command[],
  version = "unknown",
): Dispatch {
  const [first, ...rest] = argv;
  if (first === "--version" || first === "-v")
    return { kind: "print", text: `authsvc ${version}`, exitCode: 0, stream: "stdout" };
  if (first === "--help" || first === "-h" || first === "help")
    return { kind: "print", text: overview(commands), exitCode: 0, stream: "stdout" };
  const command = commands.find((c) => c.name === (first ?? "serve"));
  if (!command)
    return {
      kind: "print",
      text: `authsvc: unknown command ${first}\n${overview(commands)}`,
      exitCode: 2,
      stream: "stderr",
    };
  if (rest.includes("--help") || rest.includes("-h"))
    return { kind: "print", text: command.usage, exitCode: 0, stream: "stdout" };
  return { kind: "run", command, args: rest };
}
