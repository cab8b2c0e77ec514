/**
 * Text Postgres can store. A UTF-16 string may hold a lone surrogate (JSON allows the escape
 * `"\ud800"`), which no UTF-8 encoding can carry: jsonb refuses it and a text column silently turns it
 * into U+FFFD. NUL is refused by both. Request fields with either are refused; provider data has
 * them replaced (see `storableText`), except where a value identifies someone.
 */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const LONE_SURROGATES = new RegExp(LONE_SURROGATE.source, "g");

/** True when `text` holds a lone surrogate. */
export const hasLoneSurrogate = (text: string): boolean => LONE_SURROGATE.test(text);

/** True when Postgres can store `text` as it is (no NUL, no lone surrogate). */
export const isStorableText = (text: string): boolean => !text.includes("\u0000") && !hasLoneSurrogate(text);

/** `text` with every NUL and lone surrogate replaced by U+FFFD, the replacement character. */
export const storableText = (text: string): string =>
  isStorableText(text) ? text : text.replace(LONE_SURROGATES, "\ufffd").replaceAll("\u0000", "\ufffd");
