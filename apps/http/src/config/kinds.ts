import { isIP } from "node:net";
import * as v from "valibot";

/**
 * A kind of value: a valibot schema from the raw environment string to a typed value, plus the
 * name the docs give the kind. Issue messages read "expected …"; the reader appends the offending
 * value, unless the variable holds a secret.
 */
export interface Kind<T> {
  readonly type: string;
  readonly schema: v.GenericSchema<string, T>;
}

const TRUE_WORDS = ["true", "1", "yes", "on"] as const;
const FALSE_WORDS = ["false", "0", "no", "off"] as const;

export const boolean: Kind<boolean> = {
  type: "boolean",
  schema: v.pipe(
    v.string(),
    v.trim(),
    v.toLowerCase(),
    v.picklist([...TRUE_WORDS, ...FALSE_WORDS], "expected true or false (or 1/0, yes/no, on/off)"),
    v.transform((word) => (TRUE_WORDS as readonly string[]).includes(word)),
  ),
};

interface Range {
  readonly min?: number;
  readonly max?: number;
}

function rangeText({ min = 0, max }: Range): string {
  return max === undefined ? `(at least ${min})` : `(${min}–${max})`;
}

function counted(type: string, unit: string, range: Range): Kind<number> {
  const { min = 0, max = Number.MAX_SAFE_INTEGER } = range;
  return {
    type: range.min === undefined && range.max === undefined ? type : `${type} ${rangeText(range)}`,
    schema: v.pipe(
      v.string(),
      v.trim(),
      // Digits only: "1e3", "0x10", "-1" and "3.5" are typos more often than intent.
      v.regex(/^\d+$/, `expected a whole number${unit}`),
      v.transform(Number),
      v.check((n) => n >= min && n <= max, `expected a whole number${unit} ${rangeText(range)}`),
    ),
  };
}

export const wholeNumber = (range: Range = {}): Kind<number> => counted("whole number", "", range);

/** `*_EXP` and `*_FREQUENCY` are whole seconds (docs/configuration.md), so units are not accepted. */
export const seconds = (range: Range = {}): Kind<number> =>
  counted("whole number of seconds", " of seconds", range);

export const port = (min = 0): Kind<number> => wholeNumber({ min, max: 65535 });

const UNIT_MS: Readonly<Record<string, number>> = {
  ns: 1e-6,
  us: 1e-3,
  µs: 1e-3,
  μs: 1e-3,
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
};
const GO_DURATION = /^(?:\d+(?:\.\d+)?(?:ns|us|µs|μs|ms|s|m|h))+$/;
const GO_DURATION_PART = /(\d+(?:\.\d+)?)(ns|us|µs|μs|ms|s|m|h)/g;

/** Milliseconds from a Go duration ("1h30m", "250ms") or a bare whole number of seconds. */
export function parseDuration(text: string): number | undefined {
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  if (!GO_DURATION.test(text)) return undefined;
  let ms = 0;
  for (const [, amount, unit] of text.matchAll(GO_DURATION_PART))
    ms += Number(amount) * (UNIT_MS[unit ?? ""] ?? 0);
  return Math.round(ms);
}

/** Variables the reference server reads as Go durations take them here too (docs/configuration.md). */
export function duration(minMs = 0): Kind<number> {
  const expected = "expected a duration such as 10s, 1m30s or 250ms, or a whole number of seconds";
  return {
    type: "duration",
    schema: v.pipe(
      v.string(),
      v.trim(),
      v.transform(parseDuration),
      v.number(expected),
      v.minValue(minMs, minMs === 0 ? expected : `expected a duration of at least ${minMs}ms`),
    ),
  };
}

function isUrl(text: string, protocols: readonly string[]): boolean {
  try {
    const url = new URL(text);
    return protocols.includes(url.protocol) && url.host !== "";
  } catch {
    return false;
  }
}

export const url: Kind<string> = {
  type: "URL",
  schema: v.pipe(
    v.string(),
    v.trim(),
    v.check((text) => isUrl(text, ["http:", "https:"]), "expected an absolute http(s) URL"),
  ),
};

/**
 * A postgres URL may name several hosts (`postgres://u:p@db1:5432,db2:5432/auth`), tried in turn as
 * libpq and postgres.js do: with `target_session_attrs=read-write`, until one accepts writes (the
 * primary of a replicated pair). URL refuses a comma in the authority, so each host is checked alone.
 */
function isPostgresUrl(text: string): boolean {
  const parts = /^(postgres(?:ql)?:\/\/(?:[^/?#]*@)?)([^/?#@]*)(.*)$/i.exec(text);
  if (!parts) return false;
  const [, head = "", hosts = "", rest = ""] = parts;
  return hosts
    .split(",")
    .every((host) => host !== "" && isUrl(`${head}${host}${rest}`, ["postgres:", "postgresql:"]));
}

export const postgresUrl: Kind<string> = {
  type: "postgres URL",
  schema: v.pipe(
    v.string(),
    v.trim(),
    v.check(isPostgresUrl, "expected a postgres:// or postgresql:// connection URL"),
  ),
};

export const redisUrl: Kind<string> = {
  type: "redis URL",
  schema: v.pipe(
    v.string(),
    v.trim(),
    v.check((text) => isUrl(text, ["redis:", "rediss:"]), "expected a redis:// or rediss:// URL"),
  ),
};

/** Mail links are `<API_EXTERNAL_URL><path>`, or the URL itself when absolute. */
export const urlPath: Kind<string> = {
  type: "path or URL",
  schema: v.pipe(
    v.string(),
    v.trim(),
    v.check(
      (text) => text.startsWith("/") || isUrl(text, ["http:", "https:"]),
      "expected a path starting with / or an absolute http(s) URL",
    ),
  ),
};

export function oneOf<const T extends readonly [string, ...string[]]>(options: T): Kind<T[number]> {
  return {
    type: `one of ${options.join(", ")}`,
    schema: v.pipe(
      v.string(),
      v.trim(),
      v.toLowerCase(),
      v.picklist(options, `expected one of ${options.join(", ")}`),
    ),
  };
}

export const text: Kind<string> = { type: "string", schema: v.pipe(v.string(), v.trim()) };

/** Secrets are used verbatim: another service may sign with the very same bytes. */
export function secret(minLength = 1): Kind<string> {
  return {
    type: minLength > 1 ? `secret string of at least ${minLength} characters` : "secret string",
    schema: v.pipe(v.string(), v.minLength(minLength, `expected at least ${minLength} characters`)),
  };
}

export const host: Kind<string> = {
  type: "host name or IP address",
  schema: v.pipe(
    v.string(),
    v.trim(),
    // Catches "smtp://mail.example.com" and "host:587", which would fail only at the first send.
    v.regex(/^(?:[A-Za-z0-9_.-]+|\[?[0-9A-Fa-f:.]+\]?)$/, "expected a host name or IP address"),
    v.check((text) => !/^[A-Za-z0-9_.-]+:\d+$/.test(text), "expected a host name or IP address"),
  ),
};

export const email: Kind<string> = {
  type: "email address",
  schema: v.pipe(v.string(), v.trim(), v.regex(/^[^\s@]+@[^\s@]+$/, "expected an email address")),
};

/** Table names are interpolated into migrations, so only a plain lowercase identifier is safe. */
export const sqlIdentifier: Kind<string> = {
  type: "SQL identifier",
  schema: v.pipe(
    v.string(),
    v.trim(),
    v.regex(
      /^[a-z_][a-z0-9_]{0,62}$/,
      "expected a lowercase SQL identifier (a-z, 0-9, _; not starting with a digit; at most 63 characters)",
    ),
  ),
};

const HEADER_NAME = /^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/;

export const headerName: Kind<string> = {
  type: "header name",
  schema: v.pipe(v.string(), v.trim(), v.regex(HEADER_NAME, "expected an HTTP header name")),
};

function splitList(text: string): string[] {
  return text
    .split(",")
    .map((item) => item.trim())
    .filter((item) => item !== "");
}

export const list: Kind<readonly string[]> = {
  type: "comma-separated list",
  schema: v.pipe(v.string(), v.transform(splitList)),
};

export const headerList: Kind<readonly string[]> = {
  type: "comma-separated header names",
  schema: v.pipe(
    v.string(),
    v.transform(splitList),
    v.check(
      (names) => names.every((name) => HEADER_NAME.test(name)),
      "expected comma-separated HTTP header names",
    ),
  ),
};

/**
 * Sets separated by `:`; `\:` is a literal colon (a backslash elsewhere is literal). Empty sets are
 * dropped. Same reading as the reference server, so existing values keep their meaning.
 */
export function parseCharacterSets(value: string): string[] {
  const parts = value.split(":");
  const sets: string[] = [];
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i] ?? "";
    if (part.endsWith("\\") && i < parts.length - 1) {
      parts[i + 1] = `${part.slice(0, -1)}:${parts[i + 1] ?? ""}`;
    } else if (part !== "") {
      sets.push(part);
    }
  }
  return sets;
}

export const characterSets: Kind<readonly string[]> = {
  type: "character sets separated by `:`",
  schema: v.pipe(v.string(), v.transform(parseCharacterSets)),
};

export const pathList: Kind<readonly string[]> = {
  type: "comma-separated paths",
  schema: v.pipe(
    v.string(),
    v.transform(splitList),
    v.check(
      (paths) => paths.length > 0 && paths.every((path) => /^\/[\w\-./~]*$/.test(path)),
      "expected comma-separated paths, each starting with /",
    ),
  ),
};

/** `192.0.2.1`, `10.0.0.0/8`, `2001:db8::/32`: an address, or a network with its prefix length. */
function isAddressRange(text: string): boolean {
  const [address = "", prefix, ...rest] = text.split("/");
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

export const addressRangeList: Kind<readonly string[]> = {
  type: "comma-separated IP addresses or CIDR ranges",
  schema: v.pipe(
    v.string(),
    v.transform(splitList),
    v.check(
      (ranges) => ranges.every(isAddressRange),
      "expected comma-separated IP addresses or CIDR ranges (10.0.0.0/8, 2001:db8::/32)",
    ),
  ),
};

/** `provider=domain` pairs, comma-separated (the reference's `ProviderLinkingDomains`: a provider may hold `:`). */
export const providerDomains: Kind<Readonly<Record<string, string>>> = {
  type: "comma-separated provider=domain pairs",
  schema: v.pipe(
    v.string(),
    v.transform(splitList),
    v.check(
      (pairs) => pairs.every((pair) => /^[^=\s][^=]*=\s*[^=\s][^=]*$/.test(pair)),
      "expected comma-separated provider=domain pairs, both non-empty (custom:github=social)",
    ),
    v.transform((pairs) =>
      Object.fromEntries(
        pairs.map((pair) => {
          const at = pair.indexOf("=");
          return [pair.slice(0, at).trim(), pair.slice(at + 1).trim()];
        }),
      ),
    ),
  ),
};
