import { type Config, ConfigFileError, loadConfig, readEnvironment } from "../config.js";
import { ensureDevSecret } from "../infrastructure/jwt/dev-secret.js";

/** The environment with `.env`, or exit 1 when `.env` is malformed. */
export function environment(): Record<string, string> {
  try {
    return readEnvironment(process.cwd(), process.env);
  } catch (error) {
    if (!(error instanceof ConfigFileError)) throw error;
    process.stderr.write(`authsvc: ${error.message}\n`);
    process.exit(1);
  }
}

/**
 * Writes every configuration problem, one per line, on stderr, then the warnings (a misspelt name is
 * often why a required one is missing); resolves to exit code 1.
 */
export function refuseConfiguration(problems: readonly string[], warnings: readonly string[] = []): number {
  const count = problems.length;
  process.stderr.write(
    `authsvc: invalid configuration (${count} ${count === 1 ? "problem" : "problems"}):\n`,
  );
  for (const problem of problems) process.stderr.write(`  ${problem}\n`);
  if (warnings.length > 0) process.stderr.write("and these warnings, which may explain them:\n");
  for (const warning of warnings) process.stderr.write(`  ${warning}\n`);
  return 1;
}

/** Loads the configuration or exits 1 with every problem, one per line, on stderr. */
export function configure(): { config: Config; notices: string[]; warnings: string[] } {
  const vars = environment();
  const result = loadConfig(vars, { devJwtSecret: ensureDevSecret });
  if (!result.ok) process.exit(refuseConfiguration(result.problems, result.warnings));
  return result;
}
