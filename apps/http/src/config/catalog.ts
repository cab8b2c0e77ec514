import type { Family } from "./families.js";
import type { Section } from "./sections/section.js";
import { type ConfigVariable, describe, type Variable } from "./variable.js";

/** What has configuration: a capability with its section (modules/), in the order of its list. */
export interface Configurable {
  readonly section?: Section;
}

/** Every variable of the sections of `modules`, in order: the order docs/configuration.md presents them. */
export const variablesOf = (modules: readonly Configurable[]): readonly Variable<unknown>[] =>
  modules.flatMap((module) => module.section?.variables ?? []);

/** Every name the sections of `modules` read, aliases included. */
export const knownNamesOf = (modules: readonly Configurable[]): ReadonlySet<string> =>
  new Set(variablesOf(modules).flatMap((v) => [v.name, ...v.aliases]));

/** Every variable family of the sections of `modules`. */
export const familiesOf = (modules: readonly Configurable[]): readonly Family[] =>
  modules.flatMap((module) => module.section?.families ?? []);

/** Name, type, default, requirement and meaning of every variable of `modules`: the source of the docs. */
export const configVariablesOf = (modules: readonly Configurable[]): readonly ConfigVariable[] =>
  variablesOf(modules).map(describe);
