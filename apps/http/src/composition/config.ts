import { configVariablesOf, familiesOf, knownNamesOf } from "../config/catalog.js";
import { inFamilyOf } from "../config/families.js";
import { type LoadOptions, type LoadResult, loadConfigOf } from "../config/load.js";
import type { ConfigVariable } from "../config/variable.js";
import type { HttpModule } from "../modules/module.js";
import { MODULES } from "./modules.js";

let known: ReadonlySet<string> | undefined;
let described: readonly ConfigVariable[] | undefined;

/** Every name the sections of the server's modules read, aliases included. */
export function knownNames(): ReadonlySet<string> {
  known ??= knownNamesOf(MODULES);
  return known;
}

let inAnyFamily: ((name: string) => boolean) | undefined;

/** Whether `name` sits inside a variable family of the server's sections (config/families.ts). */
export function inFamily(name: string): boolean {
  inAnyFamily ??= inFamilyOf(familiesOf(MODULES));
  return inAnyFamily(name);
}

/** Name, type, default, requirement and meaning of every variable: the source of docs/configuration.md. */
export function configVariables(): readonly ConfigVariable[] {
  described ??= configVariablesOf(MODULES);
  return described;
}

/**
 * Parses and validates the configuration of the server's modules (config/load.ts), or of `modules`
 * when given (a test's list).
 */
export function loadConfig(
  vars: Readonly<Record<string, string | undefined>>,
  options: LoadOptions & { readonly modules?: readonly HttpModule[] } = {},
): LoadResult {
  const catalog = options.modules
    ? { modules: options.modules }
    : { modules: MODULES, knownNames: knownNames() };
  return loadConfigOf(catalog, vars, options);
}
