import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const src = (p: string) => fileURLToPath(new URL(p, import.meta.url));

export default defineConfig({
  resolve: {
    // Tests run against the TypeScript sources of the workspace packages; the built server
    // (apps/http/dist) is what the end-to-end tests start as a process.
    alias: [
      { find: /^@authsvc\/core\/testing$/, replacement: src("./core/src/testing/index.ts") },
      { find: /^@authsvc\/core$/, replacement: src("./core/src/index.ts") },
      { find: /^@authsvc\/adapters\/testing$/, replacement: src("./adapters/src/testing/index.ts") },
      { find: /^@authsvc\/adapters$/, replacement: src("./adapters/src/index.ts") },
      { find: /^@authsvc\/http\/testing$/, replacement: src("./apps/http/src/testing/index.ts") },
      { find: /^@authsvc\/http$/, replacement: src("./apps/http/src/index.ts") },
    ],
  },
  test: {
    include: [
      "core/src/**/*.test.ts",
      "adapters/src/**/*.test.ts",
      "apps/http/src/**/*.test.ts",
      "test/**/*.test.ts",
    ],
    globalSetup: ["test/support/global-setup.ts"],
    // Every answer of an authsvc server a test fetches is checked against the OpenAPI description.
    setupFiles: ["test/support/openapi-fetch-check.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    // Most files wait on servers they start (processes of their own, a database, Chromium), not on
    // the CPU: two at a time on two cores halve the run (298 files: 1,175 s with one, 528 s with two).
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});
