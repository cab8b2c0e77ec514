import type { Reader } from "../reader.js";
import type { Variable } from "../variable.js";

/** What the loader hands a section once every variable has been read. */
export interface SettleContext {
  readonly r: Reader;
  /** No database URL is set: development defaults apply. */
  readonly embedded: boolean;
  /** Messages about defaults applied, logged at start. */
  readonly notices: string[];
  /** Where embedded mode keeps its files (`DATA_DIR`). */
  readonly dataDir: string;
  /** The development JWT secret for embedded mode (see `LoadOptions`). */
  readonly devJwtSecret: ((dataDir: string) => string) | undefined;
}

/**
 * The value of a variable required outside embedded mode: outside it, a missing value is a problem;
 * inside it, `make` supplies a development value and a notice says which.
 */
export function orEmbedded(
  ctx: SettleContext,
  variable: Variable<string>,
  make: () => string | undefined,
  what: string,
): string | undefined {
  if (ctx.r.isSet(variable)) return undefined; // set but invalid: already reported
  if (!ctx.embedded) {
    ctx.r.missing(variable);
    return undefined;
  }
  const value = make();
  if (value !== undefined) ctx.notices.push(`${variable.name} not set: ${what} (embedded mode)`);
  return value;
}

/**
 * A required value. It is undefined only when a problem was recorded, and then the loader discards
 * the configuration being built, so the placeholder is never seen.
 */
export function must<T>(ctx: SettleContext, value: T | undefined, variable: Variable<unknown>): T {
  if (value !== undefined) return value;
  if (ctx.r.problems.length === 0)
    throw new Error(`config: ${variable.name} is missing, yet no problem was recorded`);
  return undefined as T;
}

/** `magic_link` → `MAGIC_LINK`, `linkedin_oidc` → `LINKEDIN_OIDC`. */
export const envSuffix = (key: string): string => key.toUpperCase();

export function byKey<K extends string, T>(keys: readonly K[], make: (key: K) => T): Readonly<Record<K, T>> {
  // Object.fromEntries loses the key type; every key of `keys` is present by construction.
  return Object.fromEntries(keys.map((key) => [key, make(key)])) as Record<K, T>;
}
