import { MODULES } from "../modules/index.js";
import type { HttpModule } from "../modules/module.js";
import { type ConfigVariable, describe, type Variable } from "./variable.js";

/** Every variable of the modules' sections, in the list's order: the order docs/configuration.md presents them. */
export const variablesOf = (modules: readonly HttpModule[]): readonly Variable<unknown>[] =>
  modules.flatMap((module) => module.section?.variables ?? []);

const all = variablesOf(MODULES);

/** Name, type, default, requirement and meaning of every variable: the source of the docs. */
export const configVariables: readonly ConfigVariable[] = all.map(describe);

/** Every name the sections of `modules` read, aliases included. */
export const knownNamesOf = (modules: readonly HttpModule[]): ReadonlySet<string> =>
  new Set(variablesOf(modules).flatMap((v) => [v.name, ...v.aliases]));

/** Every name that is read, aliases included. */
export const knownNames: ReadonlySet<string> = knownNamesOf(MODULES);
