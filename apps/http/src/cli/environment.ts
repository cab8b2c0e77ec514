import { type Config, ConfigFileError, loadConfig, readEnvironment } from "../config.js";
import { ensureDevSecret } from "../wiring/dev-secret.js";

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

/** Loads the configuration or exits 1 with every problem, one per line, on stderr. */
export function configure(): { config: Config; notices: string[]; warnings: string[] } {
  const vars = environment();
  const result = loadConfig(vars, { devJwtSecret: ensureDevSecret });
  if (!result.ok) {
    const count = result.problems.length;
    process.stderr.write(
      `authsvc: invalid configuration (${count} ${count === 1 ? "problem" : "problems"}):\n`,
    );
    for (const problem of result.problems) process.stderr.write(`  ${problem}\n`);
    process.exit(1);
  }
  return result;
}
