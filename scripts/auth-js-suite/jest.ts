/**
 * Runs the checkout's suite as its own scripts do — `jest --runInBand` from `test/` (old layout), or
 * `jest --config jest.config.cli.js --runInBand` from the package (Supabase-CLI layout) — with its test
 * files untouched, and reads jest's JSON report. Coverage, which the suite's config turns
 * on, is turned off: it measures auth-js, not the server, and only slows the run.
 */
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { stripVTControlCharacters } from "node:util";

export interface TestOutcome {
  /** The test file, relative to the checkout. */
  readonly file: string;
  /** Its describe blocks and name. */
  readonly name: string;
  readonly status: "passed" | "failed" | "pending" | "todo" | "skipped" | "disabled";
  /** The first lines of its failure, when it failed. */
  readonly failure?: string;
}

export interface SuiteResult {
  readonly outcomes: TestOutcome[];
  /** Files jest could not run at all (a compile error, a crash), with its message. */
  readonly brokenFiles: { file: string; message: string }[];
  readonly exitCode: number;
  readonly seconds: number;
}

interface JestReport {
  testResults: {
    name: string;
    message: string;
    assertionResults: { fullName: string; status: TestOutcome["status"]; failureMessages: string[] }[];
  }[];
}

const firstLines = (text: string, count: number) =>
  stripVTControlCharacters(text).split("\n").filter(Boolean).slice(0, count).join("\n");

/** Where the checkout's jest runs: its folder (with the jest install) and its config file, if named. */
export interface JestPlace {
  readonly dir: string;
  readonly config?: string;
}

export async function runSuite(
  checkout: string,
  place: JestPlace,
  reportFile: string,
  extraArgs: string[],
  signal: AbortSignal,
): Promise<SuiteResult> {
  const started = performance.now();
  // The checkout's own jest, as `npx jest` in test/ finds it, run without npx in between: npm exec
  // does not pass a signal on, and an interrupted run must stop jest itself.
  const jest = join(place.dir, "node_modules/jest/bin/jest.js");
  const args = [
    jest,
    ...(place.config ? ["--config", place.config] : []),
    "--runInBand",
    "--coverage=false",
    "--json",
    `--outputFile=${reportFile}`,
    ...extraArgs,
  ];
  const child = spawn(process.execPath, args, { cwd: place.dir, stdio: "inherit", signal });
  // An interruption kills jest with an AbortError event; its close follows once it has exited.
  child.on("error", () => {});
  const exitCode = await new Promise<number>((resolve) => child.once("close", (code) => resolve(code ?? 1)));
  // A suite that could not start (a missing dependency, a broken config) or was interrupted writes none.
  if (!existsSync(reportFile)) throw new Error(`jest ended (${exitCode}) without writing its report`);
  const report = JSON.parse(readFileSync(reportFile, "utf8")) as JestReport;
  const outcomes: TestOutcome[] = [];
  const brokenFiles: SuiteResult["brokenFiles"] = [];
  for (const file of report.testResults) {
    const relative = file.name.startsWith(checkout) ? file.name.slice(checkout.length + 1) : file.name;
    if (file.assertionResults.length === 0 && file.message) {
      brokenFiles.push({ file: relative, message: firstLines(file.message, 6) });
    }
    for (const test of file.assertionResults) {
      const failure =
        test.failureMessages.length > 0 ? firstLines(test.failureMessages.join("\n"), 8) : undefined;
      outcomes.push({
        file: relative,
        name: test.fullName,
        status: test.status,
        ...(failure ? { failure } : {}),
      });
    }
  }
  return { outcomes, brokenFiles, exitCode, seconds: (performance.now() - started) / 1000 };
}
