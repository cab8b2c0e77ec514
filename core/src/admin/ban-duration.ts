import { failures } from "../failures.js";
import { err, ok, type Result } from "../kernel/index.js";

/** What an admin's `ban_duration` asks for: lift the ban, or ban for `ms` milliseconds from now. */
export type BanDuration = { readonly kind: "none" } | { readonly kind: "ban"; readonly ms: number };

// Nanoseconds per unit, as Go's time.unitMap (both micro signs included).
const UNITS: Readonly<Record<string, bigint>> = {
  ns: 1n,
  us: 1_000n,
  "\u00b5s": 1_000n,
  "\u03bcs": 1_000n,
  ms: 1_000_000n,
  s: 1_000_000_000n,
  m: 60_000_000_000n,
  h: 3_600_000_000_000n,
};
const MAX_NS = (1n << 63n) - 1n; // Go's time.Duration is an int64 of nanoseconds
const NS_PER_MS = 1_000_000n;
// One element: digits, an optional fraction, then the unit (everything up to the next digit or dot).
const ELEMENT = /^(\d*)(?:\.(\d*))?([^\d.]*)/;

const invalid = (reason: string) => err(failures.banDurationInvalid(reason));

/**
 * Parses an admin's `ban_duration`: `none` lifts a ban; anything else is a Go `time.ParseDuration`
 * string ("24h", "1h30m", "1.5h", "300ms", units ns, us/µs, ms, s, m, h; "0" needs no unit).
 * Negative durations are refused (GoTrue would accept them and "ban" until a past instant).
 * Sub-millisecond remainders are dropped. Errors are 400 `validation_failed`
 * "invalid format for ban duration: <reason>", the reason worded as Go's.
 */
export function parseBanDuration(input: string): Result<BanDuration> {
  if (input === "none") return ok({ kind: "none" });
  const quoted = JSON.stringify(input);
  const bad = () => invalid(`time: invalid duration ${quoted}`);
  let rest = input;
  const negative = rest.startsWith("-");
  if (negative || rest.startsWith("+")) rest = rest.slice(1);
  if (rest === "0") return ok({ kind: "ban", ms: 0 });
  if (rest === "") return bad();

  let total = 0n;
  while (rest !== "") {
    const match = ELEMENT.exec(rest);
    const [whole = "", integer = "", fraction, unit = ""] = match ?? [];
    if (integer === "" && !fraction) return bad(); // no digits, e.g. ".s" or "h"
    if (unit === "") return invalid(`time: missing unit in duration ${quoted}`);
    const perUnit = UNITS[unit];
    if (perUnit === undefined) {
      return invalid(`time: unknown unit ${JSON.stringify(unit)} in duration ${quoted}`);
    }
    // Bounded digit strings keep BigInt cheap on hostile input: more than 19 significant integer
    // digits overflow anyway, and fraction digits past the 18th are below a nanosecond even in hours.
    const significant = integer.replace(/^0+/, "");
    if (significant.length > 19) return bad();
    total += BigInt(significant || "0") * perUnit;
    const shortFraction = fraction?.slice(0, 18);
    if (shortFraction) total += (BigInt(shortFraction) * perUnit) / 10n ** BigInt(shortFraction.length);
    if (total > MAX_NS) return bad();
    rest = rest.slice(whole.length);
  }
  if (negative && total > 0n) return invalid("negative durations are not allowed");
  return ok({ kind: "ban", ms: Number(total / NS_PER_MS) });
}
