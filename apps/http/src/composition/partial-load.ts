/**
 * The parts of the configuration that the one-shot commands need, read without the rest: `migrate`
 * needs the database alone, `api-keys` and `keys` the JWT secret and keys. Requiring the site URL
 * or the external URL there would only stand in the operator's way.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Reader } from "../config/reader.js";
import type { SettleContext } from "../config/sections/context.js";
import * as db from "../config/sections/db.js";
import * as general from "../config/sections/general.js";
import type { Config } from "../config/types.js";
import { unknownNameWarnings } from "../config/unknown-names.js";
import * as jwt from "../infrastructure/jwt/section.js";
import * as telemetry from "../infrastructure/telemetry/section.js";
import { inFamily, knownNames } from "./config.js";

export type PartialLoad<T> =
  | { ok: true; config: T; notices: string[] }
  | { ok: false; problems: string[]; warnings: string[] };

/** What opening (and migrating) the database reads. */
export type DatabaseOnlyConfig = Pick<Config, "db" | "dataDir" | "embedded" | "log">;

/** What signing API keys reads. */
export type SigningOnlyConfig = Pick<Config, "jwt" | "dataDir" | "embedded">;

interface Start {
  vars: Readonly<Record<string, string | undefined>>;
  r: Reader;
  ctx: SettleContext;
  dataDir: string;
  log: Config["log"];
}

function start(
  vars: Readonly<Record<string, string | undefined>>,
  devJwtSecret?: (dataDir: string) => string,
): Start {
  const r = new Reader(vars);
  // Only the data folder of the general section: the site URL is not needed here.
  const dataDir = r.get(general.variables.dataDir);
  const { log } = telemetry.settle(telemetry.read(r));
  const embedded = db.isEmbedded(r);
  const notices: string[] = [];
  return { vars, r, ctx: { r, embedded, notices, dataDir, devJwtSecret }, dataDir, log };
}

/** A refusal carries the unknown-name warnings, as loadConfig's: a misspelt name is often why. */
const finish = <T>({ vars, r, ctx }: Start, config: T): PartialLoad<T> =>
  r.problems.length > 0
    ? { ok: false, problems: [...r.problems], warnings: unknownNameWarnings(vars, knownNames(), inFamily) }
    : { ok: true, config, notices: ctx.notices };

/** The database variables (and the log's), nothing else. */
export function loadDatabaseOnly(
  vars: Readonly<Record<string, string | undefined>>,
): PartialLoad<DatabaseOnlyConfig> {
  const s = start(vars);
  const settled = db.settle(db.read(s.r));
  return finish(s, { db: settled.db, dataDir: s.dataDir, embedded: s.ctx.embedded, log: s.log });
}

/** The JWT variables: the secret (the development one in embedded mode) and `JWT_KEYS`. */
export function loadSigningOnly(
  vars: Readonly<Record<string, string | undefined>>,
  devJwtSecret: (dataDir: string) => string,
): PartialLoad<SigningOnlyConfig> {
  const s = start(vars, devJwtSecret);
  db.read(s.r);
  const settled = jwt.settle(jwt.read(s.r), s.ctx);
  return finish(s, { jwt: settled.jwt, dataDir: s.dataDir, embedded: s.ctx.embedded });
}

/**
 * The JWT secret as the server would use it, or undefined: the variable, else in embedded mode the
 * development secret already kept in the data folder (never made here: `keys` only reads).
 */
export function configuredJwtSecret(vars: Readonly<Record<string, string | undefined>>): string | undefined {
  const s = start(vars);
  const set = s.r.source(jwt.variables.secret);
  if (set !== undefined) return set.raw;
  if (!s.ctx.embedded) return undefined;
  try {
    const kept = readFileSync(join(s.dataDir, jwt.DEV_JWT_SECRET_FILE), "utf8").trim();
    return kept === "" ? undefined : kept;
  } catch {
    return undefined;
  }
}
