import { randomUUID } from "node:crypto";
import type { Clock, Random } from "@authsvc/core";

/** The wall clock. */
export function systemClock(): Clock {
  return { now: () => new Date() };
}

/** v4 UUIDs from node:crypto's CSPRNG. */
export function cryptoRandom(): Random {
  return { uuid: () => randomUUID() };
}
