import { resolve } from "node:path";
import { signApiKey } from "@authsvc/adapters";
import type { Logger } from "pino";
import type { Config } from "../config/types.js";
import type { LogFormat } from "../infrastructure/telemetry/log-format.js";
import { logUnredacted } from "../infrastructure/telemetry/logger.js";

/** What embedded mode says before anything else: what it is, and the defaults it applied. */
export function announceDevelopmentMode(
  config: Pick<Config, "dataDir">,
  logger: Logger,
  notices: readonly string[],
) {
  logger.warn(
    { data_dir: config.dataDir },
    "DEVELOPMENT MODE: no DATABASE_URL set, using the embedded database with development defaults. Do not use in production.",
  );
  for (const notice of notices) logger.warn(notice);
}

export interface DevelopmentKeys {
  readonly url: string;
  readonly dataDir: string;
  readonly anonKey: string;
  readonly serviceRoleKey: string;
}

/**
 * Once listening, embedded mode tells a newcomer what they need to call it: where it listens, where
 * its data is, and two keys signed with the development secret (anon for the public endpoints,
 * service_role for /admin). A person (`pretty`) reads plain lines; a collector (`json`) one line
 * with the same fields. The keys bypass redaction: they are worthless outside this throwaway database.
 */
export async function announceDevelopmentKeys(
  config: Pick<Config, "dataDir" | "jwt">,
  logger: Logger,
  url: string,
  format: LogFormat,
  out: { write(text: string): unknown } = process.stdout,
): Promise<void> {
  const now = Math.floor(Date.now() / 1000);
  const keys: DevelopmentKeys = {
    url,
    dataDir: resolve(config.dataDir),
    anonKey: await signApiKey(config.jwt.secret, "anon", now, config.jwt.keys),
    serviceRoleKey: await signApiKey(config.jwt.secret, "service_role", now, config.jwt.keys),
  };
  if (format === "pretty") {
    out.write(developmentLines(keys));
    return;
  }
  logUnredacted(
    logger,
    { url, data_dir: keys.dataDir, anon_key: keys.anonKey, service_role_key: keys.serviceRoleKey },
    "development API keys (signed with the development JWT secret, or the JWT_KEYS signing key): send as 'apikey: <key>', and the service_role key as 'Authorization: Bearer <key>' for /admin",
  );
}

/** The plain lines of the announcement. */
export function developmentLines(keys: DevelopmentKeys): string {
  return `
authsvc is running in development mode (embedded database; not for production)
  URL               ${keys.url}   (also under ${keys.url}/auth/v1)
  data              ${keys.dataDir}   (database and JWT secret; delete it to start afresh)
  anon key          ${keys.anonKey}
  service_role key  ${keys.serviceRoleKey}
Send a key as 'apikey: <key>'; the service_role key as 'Authorization: Bearer <key>' reaches /admin.
'authsvc api-keys' prints the keys again.

`;
}
