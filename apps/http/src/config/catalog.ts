import { MODULES } from "../modules/index.js";
import type { HttpModule } from "../modules/module.js";
import { type ConfigVariable, describe, type Variable } from "./variable.js";

/** Every variable of the modules' sections, in the list's order: the order docs/configuration.md presents them. */
export const variablesOf = (modules: readonly HttpModule[]): readonly Variable<unknown>[] =>
  modules.flatMap((module) => module.section?.variables ?? []);

/** Every name the sections of `modules` read, aliases included. */
export const knownNamesOf = (modules: readonly HttpModule[]): ReadonlySet<string> =>
  new Set(variablesOf(modules).flatMap((v) => [v.name, ...v.aliases]));

// Computed on first use, not at import: modules import wiring that imports the configuration's
// types and constants, so the module list may still be loading when this file is.
let described: readonly ConfigVariable[] | undefined;
let known: ReadonlySet<string> | undefined;

/** Name, type, default, requirement and meaning of every variable: the source of the docs. */
export function configVariables(): readonly ConfigVariable[] {
  described ??= variablesOf(MODULES).map(describe);
  return described;
}

/** Every name that is read, aliases included. */
export function knownNames(): ReadonlySet<string> {
  known ??= knownNamesOf(MODULES);
  return known;
}
