import { type Configurable, familiesOf, knownNamesOf } from "./catalog.js";
import { inFamilyOf, unknownFamilyMembers } from "./families.js";
import { Reader } from "./reader.js";
import type { SettleContext } from "./sections/context.js";
import * as db from "./sections/db.js";
import * as general from "./sections/general.js";
import type { Config } from "./types.js";
import { unknownNameWarnings } from "./unknown-names.js";

export interface LoadOptions {
  /**
   * The development JWT secret for embedded mode. Called only when embedded mode needs it, so the
   * caller may create and store the secret lazily (in `<AUTHSVC_DATA_DIR>/jwt-secret`).
   */
  readonly devJwtSecret?: (dataDir: string) => string;
}

/** What `loadConfigOf` reads: the capabilities' sections, in order, and every name they read. */
export interface ConfigCatalog {
  readonly modules: readonly Configurable[];
  /** `knownNamesOf(modules)`, computed once by the caller. */
  readonly knownNames?: ReadonlySet<string>;
}

export type LoadResult =
  | { ok: true; config: Config; notices: string[]; warnings: string[] }
  | { ok: false; problems: string[]; warnings: string[] };

/**
 * Parses and validates the configuration from `vars` (see `readEnvironment`). Returns every problem
 * at once, or the typed configuration with notices about defaults that embedded mode applied and
 * warnings about variables that are set but not read (misspelt `AUTHSVC_` names, GoTrue's names) and
 * what each section warns about (such as per-IP limits that would not count the client the operator
 * meant, or not at all). A refused configuration carries the unknown-name warnings too: they often
 * explain its problems.
 * Two passes over the modules' sections, in the list's order: every value is parsed first, so that
 * malformed values are reported before the requirements that depend on them.
 */
export function loadConfigOf(
  catalog: ConfigCatalog,
  vars: Readonly<Record<string, string | undefined>>,
  options: LoadOptions = {},
): LoadResult {
  const { modules } = catalog;
  const r = new Reader(vars);
  const sections = modules.flatMap((module) => (module.section ? [module.section] : []));
  const values = sections.map((section) => section.read?.(r));

  const embedded = db.isEmbedded(r);
  // Read again on a reader of its own: a malformed value is reported once, by its section.
  const dataDir = new Reader(vars).get(general.variables.dataDir);
  const notices: string[] = [];
  if (embedded)
    notices.push(
      `No database URL set (${db.variables.url.name} or DATABASE_URL): using the embedded database in ${dataDir}`,
    );
  const ctx: SettleContext = { r, embedded, notices, dataDir, devJwtSecret: options.devJwtSecret };
  // Each section's part, declared beside its `settle` (see types.ts); together they are the Config.
  const config = Object.assign(
    {},
    ...sections.map((section, i) => section.settle?.(values[i] as never, ctx)),
  ) as Config;

  const known = catalog.knownNames ?? knownNamesOf(modules);
  const families = familiesOf(modules);
  const problems = [...r.problems, ...unknownFamilyMembers(vars, known, families)];
  // A misspelt name is often why a required one is missing: its hint goes with the problems.
  const nameWarnings = unknownNameWarnings(vars, known, inFamilyOf(families));
  if (problems.length > 0) return { ok: false, problems, warnings: nameWarnings };
  // Each section's warnings about values that load but would not do what was likely meant, in order.
  const warnings = [...nameWarnings, ...sections.flatMap((section) => section.warnings?.(config, r) ?? [])];
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
