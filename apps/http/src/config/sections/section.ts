import type { Family } from "../families.js";
import type { Reader } from "../reader.js";
import type { Config } from "../shape.js";
import type { Variable } from "../variable.js";
import type { SettleContext } from "./context.js";

/**
 * A configuration section as the loader and the catalogue see it: its variables (in the order the
 * docs list them), how they are read, and the part of the `Config` they settle into. A section's
 * file declares that part by augmenting `Config` (config/types.ts), so a new section needs no edit
 * anywhere else: its module names it (`section: sectionOf(file)`) and the loader loops over modules.
 */
export interface Section {
  readonly variables: readonly Variable<unknown>[];
  /** Its variable families (one variable per kind or provider): unknown members are problems. */
  readonly families?: readonly Family[];
  /** Parses every variable; problems go to the reader. Runs for every section before any settles. */
  read?(r: Reader): unknown;
  /** Its part of the `Config`, from what `read` gave, once every section has been read. */
  settle?(values: never, ctx: SettleContext): object;
  /**
   * What start should say about a configuration that loads but would not do what the operator likely
   * meant, once the whole `Config` is settled and valid. The reader tells under which name a value was set.
   */
  warnings?(config: Config, r: Reader): string[];
}

/** What a section's file exports: `variables` (a named record or a list), and `read` / `settle` / `warnings`. */
export interface SectionFile<R> {
  readonly variables: Readonly<Record<string, Variable<unknown>>> | readonly Variable<unknown>[];
  readonly families?: readonly Family[];
  readonly read?: (r: Reader) => R;
  readonly settle?: (values: R, ctx: SettleContext) => object;
  readonly warnings?: (config: Config, r: Reader) => string[];
}

/** The section of a file of sections/ (pass the file's namespace: `import * as mfa from …`). */
export function sectionOf<R>(file: SectionFile<R>): Section {
  const { variables, families, read, settle, warnings } = file;
  return {
    variables: Array.isArray(variables) ? variables : Object.values(variables),
    ...(families && { families }),
    ...(read && { read }),
    ...(settle && { settle: settle as (values: never, ctx: SettleContext) => object }),
    ...(warnings && { warnings }),
  };
}
