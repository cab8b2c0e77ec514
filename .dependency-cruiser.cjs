/**
 * The dependency rule of the hexagon (see docs/architecture.md):
 * core imports nothing outside core; adapters never import apps.
 * Run by `npm run lint`; test/dependency-rule.test.ts proves the rules bite.
 */
module.exports = {
  forbidden: [
    {
      name: "core-is-pure",
      comment: "core may import only core: no node: builtins, no npm packages, no adapters or apps.",
      severity: "error",
      from: { path: "^core/src/", pathNot: ["\\.test\\.ts$", "^core/src/testing/"] },
      to: { pathNot: "^core/src/" },
    },
    {
      name: "core-testing-only-vitest",
      comment: "core tests and core/src/testing may import core and vitest, nothing else.",
      severity: "error",
      from: { path: ["^core/src/testing/", "^core/src/.+\\.test\\.ts$"] },
      to: { pathNot: ["^core/src/", "node_modules/vitest/", "node_modules/@vitest/"] },
    },
    {
      name: "adapters-never-import-apps",
      severity: "error",
      from: { path: "^adapters/" },
      to: { path: "^apps/" },
    },
    {
      name: "no-unresolvable",
      severity: "error",
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "(^|/)dist/" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.check.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      extensions: [".ts", ".js", ".d.ts", ".json"],
    },
  },
};
