import type { Clock, Random, SecretTokens } from "../../kernel/index.js";

/** A clock that stands still until told to move. */
export function fixedClock(
  start = new Date("2026-01-01T00:00:00Z"),
): Clock & { advance(ms: number): void; set(d: Date): void } {
  let now = start;
  return {
    now: () => now,
    advance: (ms) => {
      now = new Date(now.getTime() + ms);
    },
    set: (d) => {
      now = d;
    },
  };
}

/**
 * Predictable UUIDs (00000000-0000-4000-8000-000000000001, …002, …) and codes ("000001", "000002", …
 * zero-padded to the length asked for, keeping the last digits when the count outgrows it).
 */
export function sequentialRandom(): Random {
  let n = 0;
  let codes = 0;
  return {
    uuid: () => `00000000-0000-4000-8000-${String(++n).padStart(12, "0")}`,
    digits: (length) => (length === 0 ? "" : String(++codes).padStart(length, "0").slice(-length)),
    // The count in the alphabet's base, padded with its first character.
    characters: (length, alphabet) => {
      let value = ++codes;
      let text = "";
      while (value > 0) {
        text = alphabet[value % alphabet.length] + text;
        value = Math.floor(value / alphabet.length);
      }
      return text.padStart(length, alphabet[0]).slice(-length);
    },
  };
}

/** Readable fake tokens; `hash`, `child` and `flowBinding` are reversible-looking but distinct transformations. */
export function fakeSecretTokens(): SecretTokens {
  let n = 0;
  return {
    generate: () => `rt${++n}`,
    hash: (token) => `h(${token})`,
    child: (parent) => `${parent}>c`,
    flowBinding: (flowId) => `b(${flowId})`,
  };
}
