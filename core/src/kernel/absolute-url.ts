/**
 * A strict parser for the absolute URLs a redirect may go to. Core has no WHATWG `URL`, and a lenient
 * parser is how open redirects happen: wherever a browser and a checker could read a string differently
 * (backslashes, userinfo, tabs a browser strips, percent-encoded or numeric hosts), the string is
 * refused rather than interpreted. What is accepted reads the same to the browser as to us.
 */

/** The parts of an accepted URL; scheme and host lowercased, default ports dropped. */
export interface AbsoluteUrl {
  readonly scheme: string;
  /** Host without port (`example.com`, `127.0.0.1`, `[::1]`); "" for a custom scheme without `//`. */
  readonly host: string;
  /** The port as written without leading zeros, "" when absent or the scheme's default. */
  readonly port: string;
  /** For http(s): host and non-default port, as compared against allow-list entries. */
  readonly authority: string;
  /** Everything after the authority (or after `scheme:` for a custom scheme) up to `#`. */
  readonly rest: string;
}

const DEFAULT_PORTS: Readonly<Record<string, string>> = { http: "80", https: "443" };

/** Schemes that run code, read local data or embed content: never a redirect target, allow-listed or not. */
const FORBIDDEN_SCHEMES: ReadonlySet<string> = new Set([
  "javascript",
  "vbscript",
  "data",
  "file",
  "blob",
  "about",
  "filesystem",
  "view-source",
  "jar",
]);

// RFC 3986 plus `_`, which mobile deep-link schemes use (com.my_app.example), as the reference allows.
const SCHEME = /^[a-z][a-z0-9+.\-_]*$/;
const LABEL = /^[a-z0-9]([a-z0-9-]*[a-z0-9])?$/;
const NUMERIC_LABEL = /^(0x[0-9a-f]*|[0-9]+)$/;
const DECIMAL_OCTET = /^(0|[1-9][0-9]{0,2})$/;
const IPV6 = /^\[[0-9a-f:.]+\]$/;

/** Printable ASCII only, no space, no backslash: browsers strip tabs/newlines and read `\` as `/`. */
function hasForbiddenCharacter(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c <= 0x20 || c >= 0x7f || c === 0x5c) return true;
  }
  return false;
}

/**
 * Whether `host` (lowercased) is an unambiguous host name or IP address. A browser reads a host whose
 * last label is numeric as IPv4 in decimal, octal or hex (`2130706433`, `0x7f.1`, `0177.0.0.1`), so
 * such a host is accepted only as a canonical dotted quad.
 */
function isPlainHost(host: string): boolean {
  if (IPV6.test(host)) return true;
  const labels = host.split(".");
  const last = labels[labels.length - 1] ?? "";
  if (NUMERIC_LABEL.test(last)) {
    return labels.length === 4 && labels.every((l) => DECIMAL_OCTET.test(l) && Number(l) <= 255);
  }
  return labels.every((l) => l.length <= 63 && LABEL.test(l));
}

/** Whether a path has a `.` or `..` segment (also percent-encoded), which browsers resolve away. */
function hasDotSegment(path: string): boolean {
  return path.split("/").some((segment) => /^(\.|%2e){1,2}$/i.test(segment));
}

/** Splits `host[:port]`; null when the port is not a number up to 65535. */
function splitAuthority(authority: string): { host: string; port: string } | null {
  const bracket = authority.lastIndexOf("]");
  const colon = authority.lastIndexOf(":");
  if (colon === -1 || colon < bracket) return { host: authority, port: "" };
  const digits = authority.slice(colon + 1);
  if (!/^[0-9]{1,5}$/.test(digits) || Number(digits) > 65535) return null;
  return { host: authority.slice(0, colon), port: String(Number(digits)) };
}

function parseHttp(scheme: string, afterScheme: string): AbsoluteUrl | null {
  // Exactly two slashes: browsers skip any run of them, so `https:///evil.com` is evil.com to them.
  if (!afterScheme.startsWith("//") || afterScheme.startsWith("///")) return null;
  const body = afterScheme.slice(2);
  const end = body.search(/[/?#]/);
  const rawAuthority = end === -1 ? body : body.slice(0, end);
  const rest = withoutFragment(end === -1 ? "" : body.slice(end));
  // `@` means userinfo (`https://example.com@evil.com`); `%` an encoded host the browser decodes.
  if (rawAuthority.includes("@") || rawAuthority.includes("%")) return null;
  const parts = splitAuthority(rawAuthority.toLowerCase());
  if (!parts || parts.host === "" || !isPlainHost(parts.host)) return null;
  const path = rest.split("?")[0] ?? "";
  if (hasDotSegment(path)) return null;
  const port = parts.port === DEFAULT_PORTS[scheme] ? "" : parts.port;
  return {
    scheme,
    host: parts.host,
    port,
    authority: port === "" ? parts.host : `${parts.host}:${port}`,
    // A browser requests `/` for an empty path: the same resource either way.
    rest: rest === "" || rest.startsWith("?") ? `/${rest}` : rest,
  };
}

function parseCustom(scheme: string, afterScheme: string): AbsoluteUrl | null {
  const rest = withoutFragment(afterScheme);
  if (rest.startsWith("//")) {
    const authority = rest.slice(2).split(/[/?#]/)[0] ?? "";
    if (authority.includes("@")) return null;
  }
  return { scheme, host: "", port: "", authority: "", rest };
}

const withoutFragment = (value: string): string => value.split("#")[0] ?? "";

/**
 * Parses `value` as an absolute URL (`scheme://host[:port]/path?query#fragment` for http and https,
 * `scheme:anything` for an app scheme), or null when it is malformed, ambiguous or of a forbidden
 * scheme. Never throws.
 */
export function parseAbsoluteUrl(value: string): AbsoluteUrl | null {
  if (value === "" || value.length > 4096 || hasForbiddenCharacter(value)) return null;
  const colon = value.indexOf(":");
  if (colon <= 0) return null;
  const scheme = value.slice(0, colon).toLowerCase();
  if (!SCHEME.test(scheme) || FORBIDDEN_SCHEMES.has(scheme)) return null;
  const afterScheme = value.slice(colon + 1);
  return scheme === "http" || scheme === "https"
    ? parseHttp(scheme, afterScheme)
    : parseCustom(scheme, afterScheme);
}

/** Whether the host is the loopback, where native apps listen on any port (RFC 8252 §7.3). */
export const isLoopbackHost = (host: string): boolean =>
  host === "localhost" || host === "127.0.0.1" || host === "[::1]";
