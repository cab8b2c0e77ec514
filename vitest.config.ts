import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const src = (p: string) => fileURLToPath(new URL(p, import.meta.url));

const SOURCE_TESTS = ["core/src/**/*.test.ts", "adapters/src/**/*.test.ts", "apps/http/src/**/*.test.ts"];

/**
 * Tests beside the sources that need the run's database (contracts on PostgreSQL or PGlite, the
 * embedded server, Redis, the in-process fuzzers): the `db` tier. Every other source test runs on
 * fakes and is the `unit` tier, which starts no database and needs no build.
 */
const DATABASE_TESTS = [
  "adapters/src/postgres/**/*.test.ts",
  "adapters/src/hooks/dispatcher.test.ts",
  "adapters/src/ratelimit/request-limiter.test.ts",
  "apps/http/src/fuzz.test.ts",
  "apps/http/src/modules/external/provider-fuzz.test.ts",
  "apps/http/src/infrastructure/hooks/after-user-created.test.ts",
  "apps/http/src/infrastructure/mail/notifications.test.ts",
  "apps/http/src/infrastructure/mail/localized-mail.test.ts",
];

/** Source tests that load the built packages (dist/): they run with the end-to-end tier, after the build. */
const BUILT_TESTS = ["adapters/src/optional-clients.test.ts"];

/** The one database of a run (test/support/global-setup.ts), for the tiers that use one. */
const globalSetup = ["test/support/global-setup.ts"];

export default defineConfig({
  resolve: {
    // Tests run against the TypeScript sources of the workspace packages; the built server
    // (apps/http/dist) is what the end-to-end tests start as a process.
    alias: [
      { find: /^@authsvc\/core\/testing$/, replacement: src("./core/src/testing/index.ts") },
      // A slice's entry, `@authsvc/core/<slice>` (core/package.json's `./*` export).
      { find: /^@authsvc\/core\/([a-z0-9-]+)$/, replacement: `${src("./core/src")}/$1/index.ts` },
      { find: /^@authsvc\/core$/, replacement: src("./core/src/index.ts") },
      { find: /^@authsvc\/adapters\/testing$/, replacement: src("./adapters/src/testing/index.ts") },
      { find: /^@authsvc\/adapters$/, replacement: src("./adapters/src/index.ts") },
      { find: /^@authsvc\/http\/testing$/, replacement: src("./apps/http/src/testing/index.ts") },
      { find: /^@authsvc\/http$/, replacement: src("./apps/http/src/index.ts") },
    ],
  },
  test: {
    // Every answer of an authsvc server a test fetches is checked against the OpenAPI description.
    setupFiles: ["test/support/openapi-fetch-check.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    // Most files wait on servers they start (processes of their own, a database, Chromium), not on
    // the CPU: two at a time on two cores halve the run (298 files: 1,175 s with one, 528 s with two).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // The tiers (README.md, "Tests"): `npm run test:unit`, `test:db`, `test:e2e`; `npm test` runs all.
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: SOURCE_TESTS,
          exclude: [...DATABASE_TESTS, ...BUILT_TESTS],
          // Files of a worker share its loaded modules: loading them once per file was most of the tier's time.
          isolate: false,
        },
      },
      { extends: true, test: { name: "db", include: DATABASE_TESTS, globalSetup } },
      {
        extends: true,
        test: {
          name: "e2e",
          include: ["test/**/*.test.ts", ...BUILT_TESTS],
          globalSetup,
          setupFiles: ["test/support/stop-servers.ts"],
        },
      },
    ],
  },
});
