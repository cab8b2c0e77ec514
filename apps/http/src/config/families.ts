/**
 * Variable families: one variable per mail kind, five per OAuth provider, a few per SMS gateway.
 * A name inside a family's prefix that matches no member is reported, because it is almost always
 * a typo (`…_MAGICLINK`) or a provider this server does not support, and ignoring it would leave a
 * setting silently without effect.
 */

import { HOOK_NAMES } from "@authsvc/core";
import { envSuffix } from "./sections/context.js";
import { EXTERNAL_PROVIDERS } from "./sections/external.js";
import { MAIL_KINDS, URL_PATH_KINDS } from "./sections/mail.js";
import { SMS_PROVIDERS } from "./sections/sms.js";
import { PREFIX } from "./variable.js";

const FAMILIES: readonly { readonly prefix: string; readonly hint: string }[] = [
  { prefix: "MAILER_SUBJECTS_", hint: `kinds are ${MAIL_KINDS.map(envSuffix).join(", ")}` },
  { prefix: "MAILER_URLPATHS_", hint: `kinds are ${URL_PATH_KINDS.map(envSuffix).join(", ")}` },
  { prefix: "MAILER_TEMPLATES_", hint: `kinds are ${MAIL_KINDS.map(envSuffix).join(", ")}` },
  {
    prefix: "EXTERNAL_",
    hint: `providers are ${EXTERNAL_PROVIDERS.map(envSuffix).join(", ")}, each with _ENABLED, _CLIENT_ID, _SECRET, _REDIRECT_URI, _URL`,
  },
  {
    prefix: "HOOK_",
    hint: `hooks are ${HOOK_NAMES.map(envSuffix).join(", ")}, each with _ENABLED, _URI, _SECRETS`,
  },
  {
    prefix: "SMS_",
    hint: `gateways are ${SMS_PROVIDERS.map(envSuffix).join(", ")}; see docs/configuration.md`,
  },
].map(({ prefix, hint }) => ({ prefix: `${PREFIX}${prefix}`, hint }));

/** Whether `name` sits inside a family's prefix (its unknown members are problems, not warnings). */
export const inFamily = (name: string): boolean => FAMILIES.some(({ prefix }) => name.startsWith(prefix));

/** Problems for set variables that sit inside a family's prefix but are not one of its members. */
export function unknownFamilyMembers(
  vars: Readonly<Record<string, string | undefined>>,
  known: ReadonlySet<string>,
): string[] {
  const problems: string[] = [];
  for (const [name, value] of Object.entries(vars)) {
    if (value === undefined || value.trim() === "" || known.has(name)) continue;
    const family = FAMILIES.find(({ prefix }) => name.startsWith(prefix));
    if (family !== undefined) problems.push(`${name}: unknown variable (a typo?); ${family.hint}`);
  }
  return problems;
}
