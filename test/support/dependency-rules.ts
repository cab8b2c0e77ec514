import { mkdirSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { cruise, type IReporterOutput } from "dependency-cruiser";

const require = createRequire(import.meta.url);
const ruleSet = require("../../.dependency-cruiser.cjs") as {
  forbidden: unknown[];
  options: Record<string, unknown>;
};

/** Writes `text` at `path` under `root`, making its folders. */
export function write(root: string, path: string, text: string) {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), text);
}

/** Runs the project's rule set (the one `npm run lint` uses) over `dirs` of a miniature tree. */
export async function violations(
  root: string,
  dirs: readonly string[] = ["core/src", "adapters/src", "apps/http/src"],
): Promise<string[]> {
  const { tsConfig: _tsConfig, ...options } = ruleSet.options;
  const result: IReporterOutput = await cruise([...dirs], {
    ...options,
    baseDir: root,
    ruleSet: { forbidden: ruleSet.forbidden },
    validate: true,
  } as never);
  if (typeof result.output === "string") throw new Error(result.output);
  return result.output.summary.violations.map((v) => `${v.rule.name}: ${v.from} -> ${v.to}`);
}
