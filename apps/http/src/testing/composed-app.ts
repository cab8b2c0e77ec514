import { Writable } from "node:stream";
import { type FreshNamespace, testDatabase } from "@authsvc/adapters/testing";
import { type Composition, compose } from "../composition/compose.js";
import { loadConfig } from "../config.js";
import { createLogger } from "../infrastructure/telemetry/logger.js";
import { TEST_JWT_SECRET } from "./server-env.js";

/** Where the composed app believes it is served: the host part of the requests the tests make. */
export const COMPOSED_BASE = "http://localhost:9999";

/**
 * The whole app as `main` composes it (real Postgres adapters, in the namespace `ns`), in process and
 * logging nothing, with sign-ups autoconfirmed; `extra` adds to or overrides the environment.
 */
export async function composedApp(
  ns: FreshNamespace,
  extra: Record<string, string> = {},
): Promise<Composition> {
  const result = loadConfig(
    {
      AUTHSVC_DB_DATABASE_URL: ns.url,
      AUTHSVC_DB_NAMESPACE: ns.namespace,
      // The fallback test database is an embedded server shared by every process of the run.
      AUTHSVC_DB_PREPARED_STATEMENTS: testDatabase().embedded ? "false" : "true",
      AUTHSVC_DB_MAX_POOL_SIZE: "4",
      AUTHSVC_SITE_URL: "http://localhost:3000",
      AUTHSVC_API_EXTERNAL_URL: COMPOSED_BASE,
      AUTHSVC_JWT_SECRET: TEST_JWT_SECRET,
      AUTHSVC_MAILER_AUTOCONFIRM: "true",
      ...extra,
    },
    { devJwtSecret: () => TEST_JWT_SECRET },
  );
  if (!result.ok) throw new Error(result.problems.join("\n"));
  const discard = new Writable({ write: (_chunk, _encoding, done) => done() });
  return compose(result.config, createLogger({ level: "fatal", destination: discard }));
}
