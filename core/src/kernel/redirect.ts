import { type AbsoluteUrl, isLoopbackHost, parseAbsoluteUrl } from "./absolute-url.js";

export interface RedirectOptions {
  /** SITE_URL: the fallback, and any http(s) URL on its scheme, host and port is allowed. */
  readonly siteUrl: string;
  /** URI_ALLOW_LIST entries: globs where `*` stays inside a host label or path segment, `**` does not. */
  readonly allowList: readonly string[];
}

/**
 * Where to send the user after a link: `redirectTo` when it is allowed, else `siteUrl`. Refused
 * targets fall back silently (as the reference does), so this never fails and never throws.
 */
export function resolveRedirect(redirectTo: string | undefined, options: RedirectOptions): string {
  return redirectTo !== undefined && isRedirectAllowed(redirectTo, options) ? redirectTo : options.siteUrl;
}

/**
 * Whether `redirectTo` may be redirected to: a well-formed absolute URL (see `parseAbsoluteUrl`) that
 * is an http(s) URL on SITE_URL's scheme, host and port (any port on the loopback), or that matches a
 * `URI_ALLOW_LIST` entry. An entry's scheme must be the same; its authority is matched against the
 * URL's host and port and its path/query against the URL's, each on its own (the fragment is never
 * compared), so that no wildcard can reach from the path into the host.
 */
export function isRedirectAllowed(redirectTo: string, options: RedirectOptions): boolean {
  const url = parseAbsoluteUrl(redirectTo);
  if (!url) return false;
  const site = parseAbsoluteUrl(options.siteUrl);
  if (site && isHttp(url) && isSameSite(url, site)) return true;
  return options.allowList.some((entry) => matchesEntry(url, entry.trim()));
}

const isHttp = (url: AbsoluteUrl): boolean => url.scheme === "http" || url.scheme === "https";

function isSameSite(url: AbsoluteUrl, site: AbsoluteUrl): boolean {
  return (
    url.scheme === site.scheme &&
    url.host === site.host &&
    (url.port === site.port || isLoopbackHost(url.host))
  );
}

/** An allow-list entry split like a URL, wildcards kept; null when it cannot match anything. */
interface EntryParts {
  readonly scheme: string;
  readonly authority: string;
  readonly rest: string;
}

function entryParts(entry: string): EntryParts | null {
  const colon = entry.indexOf(":");
  if (colon <= 0) return null;
  const scheme = entry.slice(0, colon).toLowerCase();
  const afterScheme = entry.slice(colon + 1).split("#")[0] ?? "";
  if (scheme !== "http" && scheme !== "https") return { scheme, authority: "", rest: afterScheme };
  if (!afterScheme.startsWith("//")) return null;
  const body = afterScheme.slice(2);
  const end = body.search(/[/?]/);
  let authority = (end === -1 ? body : body.slice(0, end)).toLowerCase();
  const rest = end === -1 ? "" : body.slice(end);
  // The URL side drops default ports; so does the entry, when it spells one out.
  const defaultPort = scheme === "http" ? ":80" : ":443";
  if (authority.endsWith(defaultPort)) authority = authority.slice(0, -defaultPort.length);
  return { scheme, authority, rest: rest === "" || rest.startsWith("?") ? `/${rest}` : rest };
}

function matchesEntry(url: AbsoluteUrl, entry: string): boolean {
  const parts = entryParts(entry);
  if (!parts || parts.scheme !== url.scheme) return false;
  if (isHttp(url) && !globMatch(parts.authority, url.authority)) return false;
  return globMatch(parts.rest, url.rest);
}

const STAR = 0;
const GLOBSTAR = 1;
type Token = string | typeof STAR | typeof GLOBSTAR;

function tokenize(pattern: string): Token[] {
  const tokens: Token[] = [];
  for (let i = 0; i < pattern.length; ) {
    if (pattern[i] !== "*") {
      tokens.push(pattern[i] as string);
      i++;
      continue;
    }
    let run = 0;
    while (pattern[i] === "*") {
      run++;
      i++;
    }
    tokens.push(run === 1 ? STAR : GLOBSTAR);
  }
  return tokens;
}

/**
 * Whether `text` matches the glob `pattern`: `*` matches any run of characters without `.` or `/`
 * (one host label, one path segment), `**` any run at all; everything else matches itself. Dynamic
 * programming over pattern × text, so a pattern with many stars cannot make matching exponential.
 */
export function globMatch(pattern: string, text: string): boolean {
  // matched[j]: the tokens so far match the first j characters of text.
  let matched: boolean[] = Array.from({ length: text.length + 1 }, (_, j) => j === 0);
  for (const token of tokenize(pattern)) {
    const next: boolean[] = new Array<boolean>(text.length + 1).fill(false);
    for (let j = 0; j <= text.length; j++) {
      const c = text[j - 1];
      if (token === GLOBSTAR) next[j] = matched[j] === true || (j > 0 && next[j - 1] === true);
      else if (token === STAR)
        next[j] = matched[j] === true || (j > 0 && next[j - 1] === true && c !== "." && c !== "/");
      else next[j] = j > 0 && matched[j - 1] === true && c === token;
    }
    matched = next;
  }
  return matched[text.length] === true;
}
