import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "dotenv";

/** The `.env` file exists but cannot be read or is not a list of assignments. */
export class ConfigFileError extends Error {
  override readonly name = "ConfigFileError";
}

// dotenv's own line pattern (lib/main.js): what it matches is an assignment; it skips anything else.
const ASSIGNMENT =
  /(?:^|^)\s*(?:export\s+)?([\w.-]+)(?:\s*=\s*?|:\s+?)(\s*'(?:\\'|[^'])*'|\s*"(?:\\"|[^"])*"|\s*`(?:\\`|[^`])*`|[^#\r\n]+)?\s*(?:#.*)?(?:$|$)/gm;

/**
 * Line numbers holding neither an assignment, a comment nor blank space. dotenv skips such lines
 * silently, so a line like `JWT_SECRET abc` would vanish without a word.
 */
export function invalidLines(text: string): number[] {
  const normalized = text.replace(/\r\n?/g, "\n");
  // Blank out what dotenv parses, keeping newlines so that line numbers survive.
  const rest = normalized.replace(ASSIGNMENT, (match) => match.replace(/[^\n]/g, " "));
  return rest
    .split("\n")
    .map((line, index) => ({ line: line.trim(), number: index + 1 }))
    .filter(({ line }) => line !== "" && !line.startsWith("#"))
    .map(({ number }) => number);
}

function readDotenv(file: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch (error) {
    if (error instanceof Error && "code" in error && error.code === "ENOENT") return "";
    const reason = error instanceof Error && "code" in error ? String(error.code) : String(error);
    throw new ConfigFileError(`${file}: cannot be read (${reason})`, { cause: error });
  }
}

/**
 * The variables to configure from: `<cwd>/.env` (optional) overlaid with `env`, so the environment
 * wins (docs/configuration.md). Throws `ConfigFileError` for an unreadable or malformed file; the
 * message gives line numbers, never contents, since the file holds secrets.
 */
export function readEnvironment(
  cwd: string,
  env: Record<string, string | undefined>,
): Record<string, string> {
  const file = join(cwd, ".env");
  const text = readDotenv(file);
  const bad = invalidLines(text);
  if (bad.length > 0) {
    throw new ConfigFileError(`${file}: line ${bad.join(", ")} is not a KEY=value assignment or a # comment`);
  }
  const vars: Record<string, string> = { ...parse(text) };
  for (const [name, value] of Object.entries(env)) if (value !== undefined) vars[name] = value;
  return vars;
}
