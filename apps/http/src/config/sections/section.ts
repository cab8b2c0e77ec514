import type { Variable } from "../variable.js";

/** A configuration section as the catalogue sees it: its variables, in the order the docs list them. */
export interface Section {
  readonly variables: readonly Variable<unknown>[];
}

/** The section of a file of sections/, whose `variables` are a named record or a list. */
export const sectionOf = (
  variables: Readonly<Record<string, Variable<unknown>>> | readonly Variable<unknown>[],
): Section => ({
  variables: Array.isArray(variables) ? variables : Object.values(variables),
});
