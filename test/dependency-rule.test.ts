import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { violations, write } from "./support/dependency-rules.js";

describe("the dependency rule (npm run lint)", () => {
  const roots: string[] = [];
  afterAll(() => {
    for (const root of roots) rmSync(root, { recursive: true, force: true });
  });

  /** A miniature of the repository that obeys the rule; each test adds one import to it. */
  function tree(): string {
    const root = mkdtempSync(join(tmpdir(), "authsvc-deprule-"));
    roots.push(root);
    write(root, "core/src/a.ts", 'import { b } from "./b.js";\nexport const a = b;\n');
    write(root, "core/src/b.ts", "export const b = 1;\n");
    // Two slices: accounts uses the kernel through the kernel's entry.
    write(root, "core/src/kernel/index.ts", 'export { k } from "./k.js";\n');
    write(root, "core/src/kernel/k.ts", "export const k = 1;\n");
    write(root, "core/src/accounts/index.ts", 'export { acc } from "./acc.js";\n');
    write(
      root,
      "core/src/accounts/acc.ts",
      'import { k } from "../kernel/index.js";\nexport const acc = k;\n',
    );
    write(root, "adapters/src/x.ts", 'import { a } from "../../core/src/a.js";\nexport const x = a;\n');
    write(
      root,
      "apps/http/src/y.ts",
      'import { x } from "../../../adapters/src/x.js";\nexport const y = x;\n',
    );
    return root;
  }

  it("accepts core importing core, adapters importing core, the app importing both", async () => {
    expect(await violations(tree())).toEqual([]);
  });

  it("fails a deliberate node: import in core", async () => {
    const root = tree();
    write(
      root,
      "core/src/bad.ts",
      'import { readFileSync } from "node:fs";\nexport const bad = readFileSync;\n',
    );
    expect(await violations(root)).toEqual(["core-is-pure: core/src/bad.ts -> fs"]);
  });

  it("fails core importing an npm package", async () => {
    const root = tree();
    write(root, "core/src/pkg.ts", 'import { parse } from "valibot";\nexport const p = parse;\n');
    const found = await violations(root);
    // The miniature has no node_modules, so the import is also unresolvable; what matters is the rule.
    expect(found.filter((v) => v.startsWith("core-is-pure: core/src/pkg.ts -> "))).toHaveLength(1);
  });

  it("fails adapters importing the app", async () => {
    const root = tree();
    write(root, "adapters/src/z.ts", 'import { y } from "../../apps/http/src/y.js";\nexport const z = y;\n');
    expect(await violations(root)).toEqual([
      "adapters-never-import-apps: adapters/src/z.ts -> apps/http/src/y.ts",
    ]);
  });

  it("accepts tests importing a package's testing folder, in that package and in others", async () => {
    const root = tree();
    write(root, "adapters/src/testing/sink.ts", "export const sink = 1;\n");
    write(
      root,
      "adapters/src/x.test.ts",
      'import { sink } from "./testing/sink.js";\nexport const t = sink;\n',
    );
    write(
      root,
      "apps/http/src/y.test.ts",
      'import { sink } from "../../../adapters/src/testing/sink.js";\nexport const t = sink;\n',
    );
    expect(await violations(root)).toEqual([]);
  });

  it("fails a package's test importing the end-to-end tests' support", async () => {
    const root = tree();
    write(root, "test/support/sink.ts", "export const sink = 1;\n");
    write(
      root,
      "adapters/src/x.test.ts",
      'import { sink } from "../../test/support/sink.js";\nexport const t = sink;\n',
    );
    expect(await violations(root)).toEqual([
      "packages-never-import-test: adapters/src/x.test.ts -> test/support/sink.ts",
    ]);
  });

  it("fails production code importing a testing folder", async () => {
    const root = tree();
    write(root, "adapters/src/testing/sink.ts", "export const sink = 1;\n");
    write(
      root,
      "apps/http/src/z.ts",
      'import { sink } from "../../../adapters/src/testing/sink.js";\nexport const z = sink;\n',
    );
    expect(await violations(root)).toEqual([
      "testing-only-in-tests: apps/http/src/z.ts -> adapters/src/testing/sink.ts",
    ]);
  });

  it("fails a core slice reaching past another slice's entry", async () => {
    const root = tree();
    write(root, "core/src/accounts/deep.ts", 'import { k } from "../kernel/k.js";\nexport const deep = k;\n');
    expect(await violations(root)).toEqual([
      "core-slice-through-entry: core/src/accounts/deep.ts -> core/src/kernel/k.ts",
    ]);
  });

  it("fails a slice's entry exporting its deps types", async () => {
    const root = tree();
    write(root, "core/src/accounts/deps.ts", "export interface AccountsDeps {\n  readonly k: number;\n}\n");
    write(
      root,
      "core/src/accounts/index.ts",
      'export { acc } from "./acc.js";\nexport type * from "./deps.js";\n',
    );
    expect(await violations(root)).toEqual([
      "core-slice-deps-not-reexported: core/src/accounts/index.ts -> core/src/accounts/deps.ts",
      "core-slice-deps-private: core/src/accounts/index.ts -> core/src/accounts/deps.ts",
    ]);
  });

  it("fails a slice's file re-exporting its deps types, which its entry would carry out", async () => {
    const root = tree();
    write(root, "core/src/accounts/deps.ts", "export interface AccountsDeps {\n  readonly k: number;\n}\n");
    write(root, "core/src/accounts/leak.ts", 'export type { AccountsDeps } from "./deps.js";\n');
    write(
      root,
      "core/src/accounts/index.ts",
      'export { acc } from "./acc.js";\nexport type * from "./leak.js";\n',
    );
    expect(await violations(root)).toEqual([
      "core-slice-deps-not-reexported: core/src/accounts/leak.ts -> core/src/accounts/deps.ts",
    ]);
  });

  it("fails a slice naming another slice's deps type", async () => {
    const root = tree();
    write(root, "core/src/accounts/deps.ts", "export interface AccountsDeps {\n  readonly k: number;\n}\n");
    write(
      root,
      "core/src/sessions/deps.ts",
      'import type { AccountsDeps } from "../accounts/deps.js";\nexport interface SessionsDeps extends AccountsDeps {}\n',
    );
    write(root, "core/src/sessions/index.ts", 'export { s } from "./s.js";\n');
    write(
      root,
      "core/src/sessions/s.ts",
      'import type { SessionsDeps } from "./deps.js";\nexport const s = (d: SessionsDeps) => d;\n',
    );
    expect(await violations(root)).toEqual([
      "core-slice-through-entry: core/src/sessions/deps.ts -> core/src/accounts/deps.ts",
    ]);
  });

  it("lets the composition at the core root and test support read a slice's deps types", async () => {
    const root = tree();
    write(root, "core/src/accounts/deps.ts", "export interface AccountsDeps {\n  readonly k: number;\n}\n");
    write(root, "core/src/deps.ts", 'export type { AccountsDeps as AuthDeps } from "./accounts/deps.js";\n');
    write(
      root,
      "core/src/testing/fake.ts",
      'import type { AccountsDeps } from "../accounts/deps.js";\nexport const fake = (d: AccountsDeps) => d;\n',
    );
    expect(await violations(root)).toEqual([]);
  });

  it("fails test support reaching into a slice past its entry and deps", async () => {
    const root = tree();
    write(root, "core/src/testing/fake.ts", 'import { k } from "../kernel/k.js";\nexport const fake = k;\n');
    expect(await violations(root)).toEqual([
      "core-testing-through-entry: core/src/testing/fake.ts -> core/src/kernel/k.ts",
    ]);
  });

  it("fails two core slices importing each other, even through their entries", async () => {
    const root = tree();
    write(
      root,
      "core/src/kernel/k.ts",
      'import { acc } from "../accounts/index.js";\nexport const k = acc;\n',
    );
    expect(await violations(root)).toEqual([
      "core-no-circle: core/src/accounts/acc.ts -> core/src/kernel/index.ts",
    ]);
  });

  it("finds no file of a core slice re-exporting its deps types, even one that also imports them", () => {
    // dependency-cruiser keeps one edge per imported file, the first statement's: a file that imports
    // deps.ts and re-exports from it too is seen importing only. So the real tree is read as text.
    const core = join(dirname(new URL(import.meta.url).pathname), "..", "core", "src");
    const reexport = /^export\s[^;]*from\s+"(\.\/|\.\.\/)+deps\.js"/m;
    const offenders = (readdirSync(core, { recursive: true }) as string[])
      .filter((path) => path.endsWith(".ts") && path.includes("/") && !/^(kernel|testing)\//.test(path))
      .filter((path) => reexport.test(readFileSync(join(core, path), "utf8")));
    expect(offenders).toEqual([]);
  });
});
