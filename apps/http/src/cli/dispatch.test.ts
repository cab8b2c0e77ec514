import { describe, expect, it } from "vitest";
import type { Command } from "./command.js";
import { COMMANDS } from "./commands/index.js";
import { dispatch, overview } from "./dispatch.js";

const fake = (name: string): Command => ({
  name,
  summary: `${name} things`,
  usage: `usage: authsvc ${name}`,
  run: async () => 0,
});
const commands = [fake("serve"), fake("migrate")];

describe("the authsvc dispatcher", () => {
  it.each([["--help"], ["-h"], ["help"]])("%s prints the overview on stdout, exit 0", (flag) => {
    expect(dispatch([flag], commands)).toEqual({
      kind: "print",
      text: overview(commands),
      exitCode: 0,
      stream: "stdout",
    });
  });

  it.each([["--version"], ["-v"]])("%s prints the version on stdout, exit 0", (flag) => {
    expect(dispatch([flag], commands, "1.2.3")).toEqual({
      kind: "print",
      text: "authsvc 1.2.3",
      exitCode: 0,
      stream: "stdout",
    });
  });

  it("the overview lists every command with its summary, aligned", () => {
    expect(overview(commands)).toBe(
      "usage: authsvc <command> [options]\n\ncommands:\n  serve    serve things\n  migrate  migrate things\n\n'authsvc <command> --help' tells more; 'authsvc --version' prints the version.",
    );
  });

  it("refuses an unknown command with the overview on stderr, exit 2", () => {
    expect(dispatch(["srve", "--port", "1"], commands)).toEqual({
      kind: "print",
      text: `authsvc: unknown command srve\n${overview(commands)}`,
      exitCode: 2,
      stream: "stderr",
    });
  });

  it("an option in place of the command is refused too, not taken for serve", () => {
    expect(dispatch(["--port"], commands)).toMatchObject({ kind: "print", exitCode: 2, stream: "stderr" });
  });

  it("runs serve when no command is given", () => {
    expect(dispatch([], commands)).toMatchObject({ kind: "run", command: { name: "serve" }, args: [] });
  });

  it("hands the rest of the line to the command", () => {
    expect(dispatch(["migrate", "x", "--y"], commands)).toMatchObject({
      kind: "run",
      command: { name: "migrate" },
      args: ["x", "--y"],
    });
  });

  it.each([["--help"], ["-h"]])("<command> %s prints that command's usage on stdout, exit 0", (flag) => {
    expect(dispatch(["migrate", flag], commands)).toEqual({
      kind: "print",
      text: "usage: authsvc migrate",
      exitCode: 0,
      stream: "stdout",
    });
  });

  it("every real command has a usage that starts with its own name and a one-line summary", () => {
    expect(COMMANDS.map((c) => c.name)).toEqual(
      expect.arrayContaining(["serve", "migrate", "keys", "api-keys"]),
    );
    for (const command of COMMANDS) {
      expect(command.usage).toMatch(new RegExp(`^usage: authsvc (\\[)?${command.name}`));
      expect(command.summary).not.toContain("\n");
    }
    expect(new Set(COMMANDS.map((c) => c.name)).size).toBe(COMMANDS.length);
  });
});
