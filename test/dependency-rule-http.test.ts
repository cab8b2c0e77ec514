import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { cruise, type IReporterOutput } from "dependency-cruiser";
import { afterAll, describe, expect, it } from "vitest";

const require = createRequire(import.meta.url);
const ruleSet = require("../.dependency-cruiser.cjs") as {
  forbidden: unknown[];
  options: Record<string, unknown>;
};

function write(root: string, path: string, text: string) {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), text);
}

/** Runs the project's rule set (the one `npm run lint` uses) over a miniature of apps/http/src. */
async function violations(root: string): Promise<string[]> {
  const { tsConfig: _tsConfig, ...options } = ruleSet.options;
  const result: IReporterOutput = await cruise(["apps/http/src"], {
    ...options,
    baseDir: root,
    ruleSet: { forbidden: ruleSet.forbidden },
    validate: true,
  } as never);
  if (typeof result.output === "string") throw new Error(result.output);
  return result.output.summary.violations.map((v) => `${v.rule.name}: ${v.from} -> ${v.to}`);
}

describe("the layers of apps/http (npm run lint)", () => {
  const roots: string[] = [];
  afterAll(() => {
    for (const root of roots) rmSync(root, { recursive: true, force: true });
  });

  /** config ← http ← modules ← composition ← main: each imports only below it. */
  function tree(): string {
    const root = mkdtempSync(join(tmpdir(), "authsvc-layers-"));
    roots.push(root);
    const at = (path: string, text: string) => write(root, `apps/http/src/${path}`, text);
    at("config/load.ts", "export const load = 1;\n");
    at("http/app.ts", 'import { load } from "../config/load.js";\nexport const app = load;\n');
    at("modules/hello/index.ts", 'import { app } from "../../http/app.js";\nexport const hello = app;\n');
    at(
      "composition/modules.ts",
      'import { hello } from "../modules/hello/index.js";\nexport const MODULES = [hello];\n',
    );
    at("main.ts", 'import { MODULES } from "./composition/modules.js";\nexport const main = MODULES;\n');
    return root;
  }

  it("accepts each layer importing those below it", async () => {
    expect(await violations(tree())).toEqual([]);
  });

  it("fails a throwaway circle between two files of one module", async () => {
    const root = tree();
    write(
      root,
      "apps/http/src/modules/hello/a.ts",
      'import { b } from "./b.js";\nexport const a = () => b;\n',
    );
    write(
      root,
      "apps/http/src/modules/hello/b.ts",
      'import { a } from "./a.js";\nexport const b = () => a;\n',
    );
    // The circle is reported once, at the edge where the cruise closes it.
    expect(await violations(root)).toEqual([
      "http-app-no-circle: apps/http/src/modules/hello/a.ts -> apps/http/src/modules/hello/b.ts",
    ]);
  });

  it("fails the configuration's machinery importing a module", async () => {
    const root = tree();
    write(
      root,
      "apps/http/src/config/load.ts",
      'import { hello } from "../modules/hello/index.js";\nexport const load = hello;\n',
    );
    expect(await violations(root)).toContain(
      "http-config-imports-nothing-above: apps/http/src/config/load.ts -> apps/http/src/modules/hello/index.ts",
    );
  });

  it("fails the HTTP kernel importing the module list", async () => {
    const root = tree();
    write(
      root,
      "apps/http/src/http/errors.ts",
      'import { MODULES } from "../composition/modules.js";\nexport const errors = MODULES;\n',
    );
    expect(await violations(root)).toEqual(
      expect.arrayContaining([
        "http-kernel-imports-nothing-above: apps/http/src/http/errors.ts -> apps/http/src/composition/modules.ts",
        "http-composition-at-the-top: apps/http/src/http/errors.ts -> apps/http/src/composition/modules.ts",
      ]),
    );
  });
});
