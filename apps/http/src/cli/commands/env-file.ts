import { chmodSync, existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { parse } from "dotenv";

/**
 * Editing a `.env` file in place, as `authsvc init` and `authsvc keys --write` do: the variables a
 * command sets replace their lines (or are appended), every other line — comments, order, blank
 * lines — is kept, so an operator never splices JSON into the file by hand.
 */

/** The value of `name` in the text of a `.env` file, as the server reads it. */
export function envFileValue(text: string, name: string): string | undefined {
  return parse(text)[name];
}

/**
 * One assignment line. Values are single-quoted when they hold anything dotenv would read otherwise
 * (spaces, `#`, quotes, JSON's braces); a single quote inside cannot be written that way and is refused.
 */
export function assignment(name: string, value: string): string {
  if (/[\r\n]/.test(value)) throw new Error(`${name}: a value must fit on one line`);
  if (/^[\w@%+=:,./-]*$/.test(value)) return `${name}=${value}`;
  if (value.includes("'")) throw new Error(`${name}: a value holding a single quote cannot be written`);
  return `${name}='${value}'`;
}

const ASSIGNED = (name: string) => new RegExp(`^\\s*(?:export\\s+)?${name.replace(/\./g, "\\.")}\\s*=`);

/** `text` with `name` set to `value`: its last assignment replaced (earlier ones removed), or a line added. */
export function withVariable(text: string, name: string, value: string): string {
  const lines = text === "" ? [] : text.replace(/\r\n?/g, "\n").replace(/\n$/, "").split("\n");
  const line = assignment(name, value);
  const at = lines.map((l, i) => (ASSIGNED(name).test(l) ? i : -1)).filter((i) => i >= 0);
  const last = at.at(-1);
  if (last === undefined) return `${[...lines, line].join("\n")}\n`;
  const kept = lines.map((l, i) => (i === last ? line : l)).filter((_, i) => i === last || !at.includes(i));
  return `${kept.join("\n")}\n`;
}

/** The file's text, or "" when it does not exist. */
export function readEnvFile(path: string): string {
  return existsSync(path) ? readFileSync(path, "utf8") : "";
}

/**
 * Writes `text` to `path` whole or not at all (a temporary file beside it, renamed over it), readable
 * by its owner only: the file holds the secrets the server signs with.
 */
export function writeEnvFile(path: string, text: string): void {
  const temporary = join(dirname(path), `.${process.pid}.${Date.now()}.env.tmp`);
  writeFileSync(temporary, text, { mode: 0o600, flag: "wx" });
  chmodSync(temporary, 0o600);
  renameSync(temporary, path);
}
