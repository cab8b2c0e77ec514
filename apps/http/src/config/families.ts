/**
 * Variable families: one variable per mail kind, five per OAuth provider, a few per SMS gateway.
 * A name inside a family's prefix that matches no member is reported, because it is almost always
 * a typo (`…_MAGICLINK`) or a provider this server does not support, and ignoring it would leave a
 * setting silently without effect. Each section declares its own (`families` beside its variables).
 */

import { PREFIX } from "./variable.js";

/** A family: the prefix of its members' names (without `AUTHSVC_`), and what its members are. */
export interface Family {
  readonly prefix: string;
  readonly hint: string;
  /** Names inside the prefix that are members without being declared one by one (a kind's locales). */
  readonly accepts?: (name: string) => boolean;
}

/** Whether `name` sits inside one of `families`' prefixes (its unknown members are problems, not warnings). */
export const inFamilyOf =
  (families: readonly Family[]) =>
  (name: string): boolean =>
    families.some(({ prefix }) => name.startsWith(`${PREFIX}${prefix}`));

/** Problems for set variables that sit inside a family's prefix but are not one of its members. */
export function unknownFamilyMembers(
  vars: Readonly<Record<string, string | undefined>>,
  known: ReadonlySet<string>,
  families: readonly Family[],
): string[] {
  const problems: string[] = [];
  for (const [name, value] of Object.entries(vars)) {
    if (value === undefined || value.trim() === "" || known.has(name)) continue;
    const family = families.find(({ prefix }) => name.startsWith(`${PREFIX}${prefix}`));
    if (family !== undefined && family.accepts?.(name) !== true) {
      problems.push(`${name}: unknown variable (a typo?); ${family.hint}`);
    }
  }
  return problems;
}
