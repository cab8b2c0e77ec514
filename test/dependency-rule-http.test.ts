import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { violations, write } from "./support/dependency-rules.js";

const HTTP = ["apps/http/src"];

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
    expect(await violations(tree(), HTTP)).toEqual([]);
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
    expect(await violations(root, HTTP)).toEqual([
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
    expect(await violations(root, HTTP)).toContain(
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
    expect(await violations(root, HTTP)).toEqual(
      expect.arrayContaining([
        "http-kernel-imports-nothing-above: apps/http/src/http/errors.ts -> apps/http/src/composition/modules.ts",
        "http-composition-at-the-top: apps/http/src/http/errors.ts -> apps/http/src/composition/modules.ts",
      ]),
    );
  });

  it("fails the description's builder importing a module, and a module importing an entry point", async () => {
    const root = tree();
    write(
      root,
      "apps/http/src/openapi/document.ts",
      'import { hello } from "../modules/hello/index.js";\nexport const document = hello;\n',
    );
    write(
      root,
      "apps/http/src/modules/hello/b.ts",
      'import { main } from "../../main.js";\nexport const b = main;\n',
    );
    expect(await violations(root, HTTP)).toEqual(
      expect.arrayContaining([
        "http-openapi-imports-below: apps/http/src/openapi/document.ts -> apps/http/src/modules/hello/index.ts",
        "http-entry-points-at-the-top: apps/http/src/modules/hello/b.ts -> apps/http/src/main.ts",
      ]),
    );
  });
});
