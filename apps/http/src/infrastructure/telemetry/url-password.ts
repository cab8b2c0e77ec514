/**
 * Passwords of URLs (database URLs above all) inside free text: an error message, a log line, a URL
 * on its own. One function for every place that prints such text (the logger, the start's fatal
 * message, the CLI commands' errors, the database wait's messages).
 *
 * Parsing the URL is not enough: an unencoded password that begins with digits followed by `/`, `?`
 * or `#` (`postgres://app:123#abc@db/app`) reads as host `app`, port 123 and no password at all, to
 * the URL parser and to postgres.js alike. So the text is matched, not parsed: from `scheme://user:`
 * up to the LAST `@` before the next whitespace is the password, whatever characters it has. That
 * can hide more than the password when a later `@` follows in the same word (a query's address),
 * never less.
 */
const USERINFO_PASSWORD = /(\b[a-z][a-z0-9+.-]*:\/\/[^:/?#@\s]*:)\S*@/gi;

/** postgres.js also takes the password as a query parameter. */
const QUERY_PASSWORD = /([?&]password=)[^&#\s]*/gi;

/** `text` with every URL password replaced by `mask`. */
export function maskUrlPasswords(text: string, mask = "***"): string {
  return text.replace(USERINFO_PASSWORD, `$1${mask}@`).replace(QUERY_PASSWORD, `$1${mask}`);
}
