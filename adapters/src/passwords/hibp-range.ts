import { createHash } from "node:crypto";
import type { LeakedPasswords, LeakVerdict } from "@authsvc/core/accounts";

/** How to reach the k-anonymity range API of Have I Been Pwned. */
export interface HibpRangeOptions {
  /** Base URL (`PASSWORD_HIBP_URL`); `<url>/range/<prefix>` is asked. */
  readonly url: string;
  /** Sent as `User-Agent` (`PASSWORD_HIBP_USER_AGENT`). */
  readonly userAgent: string;
  /** Longest wait for one range, 5 s unless given. */
  readonly timeoutMs?: number;
  /** How long a range's answer is reused, 5 minutes unless given. */
  readonly cacheTtlMs?: number;
  /** Most ranges kept at once (the least recently used goes first), 256 unless given. */
  readonly cacheEntries?: number;
  /** Told why a range could not be had (names neither the password nor its hash). */
  readonly onUnavailable?: (reason: string) => void;
  /** The clock of the cache, `Date.now` unless given. */
  readonly now?: () => number;
}

/** A range: the suffixes (35 upper-case hex digits) of the leaked hashes that share one prefix. */
type Range = ReadonlySet<string>;

const PREFIX_LENGTH = 5;
// A real range holds about a thousand lines (padded); a body far beyond that is not a range.
const MAX_BODY_BYTES = 2 * 1024 * 1024;
const LINE = /^([0-9A-F]{35}):(\d+)$/;

/**
 * Asks the range API whether a password is leaked (k-anonymity): the password's SHA-1 is computed
 * here and only its first five hex digits are sent (`GET <url>/range/ABCDE`, with `Add-Padding: true`
 * so that the answer's size tells nothing either); the answer lists `SUFFIX:COUNT` lines, and a
 * suffix with a count above zero means leaked (padding lines count zero). Concurrent checks of one
 * prefix share one request, and answers are kept for a while, a bounded number of them.
 */
export function hibpRange(options: HibpRangeOptions): LeakedPasswords {
  const base = options.url.replace(/\/+$/, "");
  const timeoutMs = options.timeoutMs ?? 5000;
  const ttlMs = options.cacheTtlMs ?? 5 * 60_000;
  const maxEntries = options.cacheEntries ?? 256;
  const now = options.now ?? Date.now;
  const cache = new Map<string, { range: Range; until: number }>();
  const pending = new Map<string, Promise<Range>>();

  const cached = (prefix: string): Range | undefined => {
    const entry = cache.get(prefix);
    if (entry === undefined) return undefined;
    cache.delete(prefix);
    if (entry.until <= now()) return undefined;
    cache.set(prefix, entry); // most recently used last
    return entry.range;
  };

  const remember = (prefix: string, range: Range): void => {
    cache.delete(prefix);
    cache.set(prefix, { range, until: now() + ttlMs });
    while (cache.size > maxEntries) {
      const oldest = cache.keys().next().value;
      if (oldest === undefined) break;
      cache.delete(oldest);
    }
  };

  const fetchRange = async (prefix: string): Promise<Range> => {
    const response = await fetch(`${base}/range/${prefix}`, {
      headers: { "user-agent": options.userAgent, "add-padding": "true", accept: "text/plain" },
      signal: AbortSignal.timeout(timeoutMs),
      redirect: "error",
    });
    if (response.status !== 200) {
      await response.body?.cancel();
      throw new Error(`HTTP ${response.status}`);
    }
    const declared = Number(response.headers.get("content-length") ?? "0");
    if (declared > MAX_BODY_BYTES) {
      await response.body?.cancel();
      throw new Error("answer too large");
    }
    const body = await response.text();
    if (body.length > MAX_BODY_BYTES) throw new Error("answer too large");
    const suffixes = new Set<string>();
    for (const raw of body.split("\n")) {
      const line = raw.trim().toUpperCase();
      if (line === "") continue;
      const match = LINE.exec(line);
      if (match === null) throw new Error("malformed range line");
      if (Number(match[2]) > 0) suffixes.add(match[1] as string);
    }
    return suffixes;
  };

  const rangeOf = (prefix: string): Promise<Range> => {
    const hit = cached(prefix);
    if (hit !== undefined) return Promise.resolve(hit);
    const inFlight = pending.get(prefix);
    if (inFlight !== undefined) return inFlight;
    const request = fetchRange(prefix)
      .then((range) => {
        remember(prefix, range);
        return range;
      })
      .finally(() => pending.delete(prefix));
    pending.set(prefix, request);
    return request;
  };

  return {
    async check(password: string): Promise<LeakVerdict> {
      const digest = createHash("sha1").update(password, "utf8").digest("hex").toUpperCase();
      const prefix = digest.slice(0, PREFIX_LENGTH);
      try {
        const range = await rangeOf(prefix);
        return range.has(digest.slice(PREFIX_LENGTH)) ? "leaked" : "clean";
      } catch (error) {
        options.onUnavailable?.(reasonOf(error, timeoutMs));
        return "unavailable";
      }
    },
  };
}

/** Why a range could not be had, in words for a log line. */
function reasonOf(error: unknown, timeoutMs: number): string {
  if (!(error instanceof Error)) return String(error);
  if (error.name === "TimeoutError") return `no answer within ${timeoutMs} ms`;
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : "";
  return `${error.message}${cause}`;
}
