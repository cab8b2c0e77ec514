import { knownNames } from "./catalog.js";
import { clientAddressWarnings } from "./client-address-warnings.js";
import { inFamily, unknownFamilyMembers } from "./families.js";
import { Reader } from "./reader.js";
import type { SettleContext } from "./sections/context.js";
import * as S from "./sections/index.js";
import type { Config } from "./types.js";
import { unknownNameWarnings } from "./unknown-names.js";

export { DEV_JWT_SECRET_FILE } from "./sections/jwt.js";

export interface LoadOptions {
  /**
   * The development JWT secret for embedded mode. Called only when embedded mode needs it, so the
   * caller may create and store the secret lazily (in `<AUTHSVC_DATA_DIR>/jwt-secret`).
   */
  readonly devJwtSecret?: (dataDir: string) => string;
}

export type LoadResult =
  | { ok: true; config: Config; notices: string[]; warnings: string[] }
  | { ok: false; problems: string[] };

/**
 * Parses and validates the configuration from `vars` (see `readEnvironment`). Returns every problem
 * at once, or the typed configuration with notices about defaults that embedded mode applied and
 * warnings about variables that are set but not read (misspelt `AUTHSVC_` names, GoTrue's names) and
 * about per-IP limits that would not count the client the operator meant.
 * Two passes over the sections: every value is parsed first, so that malformed values are reported
 * before the requirements that depend on them.
 */
export function loadConfig(
  vars: Readonly<Record<string, string | undefined>>,
  options: LoadOptions = {},
): LoadResult {
  const r = new Reader(vars);
  const general = S.general.read(r);
  const api = S.api.read(r);
  const db = S.db.read(r);
  const telemetry = S.telemetry.read(r);
  const jwt = S.jwt.read(r);
  const security = S.security.read(r);
  const sessions = S.sessions.read(r);
  const rateLimits = S.rateLimits.read(r);
  const external = S.external.read(r);
  const mail = S.mail.read(r);
  const sms = S.sms.read(r);
  const hooks = S.hooks.read(r);
  const mfa = S.mfa.read(r);
  const oauthServer = S.oauthServer.read(r);

  const embedded = S.db.isEmbedded(r);
  const notices: string[] = [];
  if (embedded)
    notices.push(
      `No database URL set (${S.db.variables.url.name} or DATABASE_URL): using the embedded database in ${general.dataDir}`,
    );
  const ctx: SettleContext = { r, embedded, notices, devJwtSecret: options.devJwtSecret };

  const config: Config = {
    ...S.general.settle(general, ctx),
    ...S.api.settle(api, ctx),
    ...S.db.settle(db),
    ...S.telemetry.settle(telemetry),
    ...S.jwt.settle(jwt, ctx, general.dataDir),
    ...S.security.settle(security, ctx),
    ...S.sessions.settle(sessions),
    ...S.rateLimits.settle(rateLimits),
    ...S.external.settle(external, ctx),
    ...S.mail.settle(mail, ctx),
    ...S.sms.settle(sms, ctx),
    ...S.hooks.settle(hooks, ctx),
    ...S.mfa.settle(mfa, ctx),
    ...S.oauthServer.settle(oauthServer, ctx),
  };

  const problems = [...r.problems, ...unknownFamilyMembers(vars, knownNames)];
  if (problems.length > 0) return { ok: false, problems };
  const warnings = [...unknownNameWarnings(vars, knownNames, inFamily), ...clientAddressWarnings(config)];
  return { ok: true, config: deepFreeze(config), notices, warnings };
}

/** The config is shared by every request; freezing it turns an accidental write into an error. */
function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
