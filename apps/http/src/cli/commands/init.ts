import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { createInterface } from "node:readline/promises";
import type { Command } from "../command.js";
import { refuse } from "../refuse.js";
import { writeEnvFile } from "./env-file.js";
import {
  answerProblem,
  INIT_QUESTIONS,
  INIT_USAGE,
  type InitFlag,
  initEnv,
  parseInitArgs,
} from "./init-env.js";

/** Asks for each missing answer on the terminal, again until it is acceptable. */
async function ask(
  missing: readonly (typeof INIT_QUESTIONS)[number][],
): Promise<Partial<Record<InitFlag, string>>> {
  const terminal = createInterface({ input: process.stdin, output: process.stderr });
  const answers: Partial<Record<InitFlag, string>> = {};
  try {
    for (const question of missing) {
      for (;;) {
        const value = (await terminal.question(`${question.prompt}: `)).trim();
        const problem = answerProblem(question.flag, value);
        if (problem === null) {
          answers[question.flag] = value;
          break;
        }
        process.stderr.write(`${problem}\n`);
      }
    }
  } finally {
    terminal.close();
  }
  return answers;
}

/** `authsvc init`: a `.env` for PostgreSQL mode with fresh secrets; never overwrites without --force. */
export const init: Command = {
  name: "init",
  summary: "write a .env for PostgreSQL mode with a fresh secret (or key set)",
  usage: INIT_USAGE,
  async run(args) {
    const options = parseInitArgs(args);
    if ("error" in options) return refuse(this, options.error);
    const path = resolve(options.file);
    if (existsSync(path) && !options.force)
      return refuse(this, `${path} exists: give --force to overwrite it`);
    for (const [flag, value] of Object.entries(options.answers)) {
      const problem = answerProblem(flag as InitFlag, value);
      if (problem !== null) return refuse(this, problem);
    }
    const missing = INIT_QUESTIONS.filter(({ flag }) => options.answers[flag] === undefined);
    if (missing.length > 0 && !process.stdin.isTTY)
      return refuse(this, `not a terminal: give ${missing.map(({ flag }) => `--${flag}`).join(", ")}`);
    const answers = { ...options.answers, ...(missing.length > 0 ? await ask(missing) : {}) };
    const text = initEnv(answers as Record<InitFlag, string>, options.keys);
    writeEnvFile(path, text);
    process.stderr.write(
      `authsvc init: wrote ${path}\nnext: 'authsvc migrate', then 'authsvc serve'; 'authsvc api-keys' prints the anon and service_role keys\n`,
    );
    return 0;
  },
};
