import type { AuthDeps } from "@authsvc/core";
import type { Mailer } from "@authsvc/core/messaging";

/** A language tag as a mail may be localized by: `fr`, `pt-BR`, `zh-Hant-TW`. */
const TAG = /^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*$/;
/** More would only cost time: no one localizes mail in a dozen languages of one request's list. */
const MAX_TAGS = 8;

/**
 * The languages a request asks its mail in, strongest first: its `locale` query parameter, then
 * `Accept-Language` by q-value (`*`, `q=0` and malformed entries left out).
 */
export function requestLocales(locale: string | undefined, acceptLanguage: string | undefined): string[] {
  const ranked = (acceptLanguage ?? "")
    .split(",")
    .slice(0, 32)
    .map((entry, index) => {
      const [tag = "", ...params] = entry.trim().split(";");
      const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
      const weight = q === undefined ? 1 : Number(q.slice(2));
      return { tag: tag.trim(), weight: Number.isFinite(weight) ? weight : 0, index };
    })
    .filter(({ tag, weight }) => weight > 0 && TAG.test(tag))
    .sort((a, b) => b.weight - a.weight || a.index - b.index)
    .map(({ tag }) => tag);
  const explicit = locale !== undefined && TAG.test(locale) ? [locale] : [];
  return [...new Set([...explicit, ...ranked])].slice(0, MAX_TAGS);
}

/**
 * `auth`'s mailer with the request's languages on each mail it sends (read from `auth` at each send,
 * so that a mailer swapped later still serves), for the mailer to choose a localized template by.
 */
export function mailerInLocales(auth: Pick<AuthDeps, "mailer">, locales: readonly string[]): Mailer {
  return { send: (mail) => auth.mailer.send(mail.locales ? mail : { ...mail, locales }) };
}
