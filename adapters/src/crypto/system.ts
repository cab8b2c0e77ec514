import { randomInt, randomUUID } from "node:crypto";
import type { Clock, Random } from "@authsvc/core/kernel";

/** The wall clock. */
export function systemClock(): Clock {
  return { now: () => new Date() };
}

/** v4 UUIDs, one-time codes and recovery codes from node:crypto's CSPRNG. */
export function cryptoRandom(): Random {
  return {
    uuid: () => randomUUID(),
    digits(length) {
      if (!Number.isSafeInteger(length) || length < 0) throw new RangeError(`invalid code length ${length}`);
      // randomInt rejects biased draws internally, so each digit is exactly uniform over 0–9.
      let code = "";
      for (let i = 0; i < length; i++) code += String(randomInt(10));
      return code;
    },
    characters(length, alphabet) {
      if (!Number.isSafeInteger(length) || length < 0) throw new RangeError(`invalid code length ${length}`);
      if (alphabet.length < 2) throw new RangeError("an alphabet needs two characters at least");
      let code = "";
      for (let i = 0; i < length; i++) code += alphabet[randomInt(alphabet.length)];
      return code;
    },
  };
}
