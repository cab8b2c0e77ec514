/**
 * The dependency rule of the hexagon (see docs/architecture.md):
 * core imports nothing outside core; adapters never import apps; inside core, a slice imports another
 * slice only through its entry (`<slice>/index.ts`) and never in a circle, and a slice's deps types
 * (`<slice>/deps.ts`) are neither part of its entry nor re-exported by any of its files, so no slice
 * names another's; test support lives in each package's src/testing/, which only tests import, and
 * no package imports test/.
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
      name: "core-slice-through-entry",
      comment:
        "A core slice (kernel, accounts, sessions, …) imports another slice only through its public entry, <slice>/index.ts.",
      severity: "error",
      from: { path: "^core/src/([^/]+)/", pathNot: "^core/src/testing/" },
      to: {
        path: "^core/src/(?!testing/)[^/]+/",
        pathNot: ["^core/src/$1/", "^core/src/[^/]+/index\\.ts$"],
      },
    },
    {
      name: "core-testing-through-entry",
      comment:
        "Test support imports a slice through its entry, or the slice's deps.ts to type the stores it fakes.",
      severity: "error",
      from: { path: "^core/src/testing/" },
      to: {
        path: "^core/src/(?!testing/)[^/]+/",
        pathNot: ["^core/src/[^/]+/index\\.ts$", "^core/src/[^/]+/deps\\.ts$"],
      },
    },
    {
      name: "core-slice-deps-private",
      comment:
        "A slice's deps types (<slice>/deps.ts) stay out of its entry, so no other slice can name them: a slice's deps list the ports it uses. Only the composition at core/src/*.ts gathers them (the kernel's base ports are shared).",
      severity: "error",
      from: { path: "^core/src/([^/]+)/index\\.ts$", pathNot: "^core/src/(kernel|testing)/" },
      to: { path: "^core/src/$1/deps\\.ts$" },
    },
    {
      name: "core-slice-deps-not-reexported",
      comment:
        'No file of a slice re-exports its deps types (`export … from "./deps.js"`): a file the entry exports would carry them out through the entry, past core-slice-deps-private.',
      severity: "error",
      from: { path: "^core/src/([^/]+)/", pathNot: "^core/src/(kernel|testing)/" },
      to: { path: "^core/src/$1/deps\\.ts$", dependencyTypes: ["export"] },
    },
    {
      name: "core-no-circle",
      comment:
        "No import circle inside core, neither between files nor between slices through their entries.",
      severity: "error",
      from: { path: "^core/src/" },
      to: { circular: true },
    },
    {
      name: "adapters-never-import-apps",
      severity: "error",
      from: { path: "^adapters/" },
      to: { path: "^apps/" },
    },
    {
      name: "http-app-no-circle",
      comment:
        "No import circle in apps/http/src: the composition root (composition/) assembles the module list and hands it down; nothing below imports it.",
      severity: "error",
      from: { path: "^apps/http/src/" },
      to: { path: "^apps/http/src/", circular: true },
    },
    {
      name: "http-config-imports-nothing-above",
      comment:
        "apps/http/src/config/ is the configuration's machinery: it imports only itself (the sections a module owns live in its folder).",
      severity: "error",
      from: { path: "^apps/http/src/config/", pathNot: "\\.test\\.ts$" },
      to: { path: "^apps/http/src/", pathNot: "^apps/http/src/config/" },
    },
    {
      name: "http-kernel-imports-nothing-above",
      comment:
        "apps/http/src/http/ is the HTTP kernel (the app's middleware, errors, endpoint declarations): it imports only itself and config/.",
      severity: "error",
      from: { path: "^apps/http/src/http/", pathNot: "\\.test\\.ts$" },
      to: { path: "^apps/http/src/", pathNot: "^apps/http/src/(http|config)/" },
    },
    {
      name: "http-openapi-imports-below",
      comment:
        "apps/http/src/openapi/ builds the description from declarations: it imports only itself, http/ and config/.",
      severity: "error",
      from: { path: "^apps/http/src/openapi/", pathNot: "\\.test\\.ts$" },
      to: { path: "^apps/http/src/", pathNot: "^apps/http/src/(openapi|http|config)/" },
    },
    {
      name: "http-entry-points-at-the-top",
      comment:
        "The entry points (main.ts, server.ts, index.ts, config.ts) are imported only by the CLI, test support and tests.",
      severity: "error",
      from: { path: "^apps/http/src/[^/]+/", pathNot: ["^apps/http/src/(cli|testing)/", "\\.test\\.ts$"] },
      to: { path: "^apps/http/src/[^/]+\\.ts$" },
    },
    {
      name: "http-composition-at-the-top",
      comment:
        "Only the entry points (main.ts, server.ts, index.ts, config.ts, cli/) and test support import the composition root.",
      severity: "error",
      from: {
        path: "^apps/http/src/",
        pathNot: ["^apps/http/src/(composition|cli|testing)/", "^apps/http/src/[^/]+\\.ts$", "\\.test\\.ts$"],
      },
      to: { path: "^apps/http/src/composition/" },
    },
    {
      name: "packages-never-import-test",
      comment:
        "test/ holds the end-to-end tests; what a package's tests share lives in the package's testing/ folder (its `testing` entry).",
      severity: "error",
      from: { path: "^(core|adapters|apps/[^/]+)/" },
      to: { path: "^test/" },
    },
    {
      name: "testing-only-in-tests",
      comment:
        "Fakes and suites (src/testing/, the packages' `testing` entries) are for tests: no production file imports them.",
      severity: "error",
      from: {
        path: "^(core|adapters|apps/[^/]+)/src/",
        pathNot: ["\\.test\\.ts$", "^(core|adapters|apps/[^/]+)/src/testing/"],
      },
      to: { path: "^(core|adapters|apps/[^/]+)/src/testing/" },
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
