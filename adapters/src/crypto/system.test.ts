import { describe, expect, it } from "vitest";
import { cryptoRandom, systemClock } from "./system.js";

describe("systemClock", () => {
  it("tells the current time", () => {
    const before = Date.now();
    const now = systemClock().now().getTime();
    expect(now).toBeGreaterThanOrEqual(before);
    expect(now).toBeLessThanOrEqual(Date.now());
  });
});

describe("cryptoRandom", () => {
  it("gives distinct v4 UUIDs", () => {
    const random = cryptoRandom();
    const ids = Array.from({ length: 100 }, () => random.uuid());
    expect(new Set(ids).size).toBe(100);
    for (const id of ids)
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});

describe("cryptoRandom.digits", () => {
  it("gives codes of exactly the length asked for, digits only", () => {
    const random = cryptoRandom();
    for (const length of [0, 1, 6, 10, 32]) {
      const code = random.digits(length);
      expect(code).toHaveLength(length);
      expect(code).toMatch(/^[0-9]*$/);
    }
  });

  it("refuses a length that is not a non-negative integer", () => {
    const random = cryptoRandom();
    for (const length of [-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY])
      expect(() => random.digits(length)).toThrow(RangeError);
  });

  /** Pearson's chi-squared statistic of `counts` against equal expected counts. */
  const chiSquared = (counts: readonly number[]) => {
    const total = counts.reduce((a, b) => a + b, 0);
    const expected = total / counts.length;
    return counts.reduce((sum, c) => sum + (c - expected) ** 2 / expected, 0);
  };

  it("draws every digit about equally often, in every position, leading zeros included", () => {
    const random = cryptoRandom();
    const overall = Array<number>(10).fill(0);
    const first = Array<number>(10).fill(0);
    const codes = new Set<string>();
    for (let i = 0; i < 10_000; i++) {
      const code = random.digits(6);
      codes.add(code);
      for (const [position, d] of [...code].entries()) {
        overall[Number(d)] = (overall[Number(d)] ?? 0) + 1;
        if (position === 0) first[Number(d)] = (first[Number(d)] ?? 0) + 1;
      }
    }
    // With 9 degrees of freedom a uniform source exceeds 50 about once in ten million runs.
    expect(chiSquared(overall)).toBeLessThan(50);
    expect(chiSquared(first)).toBeLessThan(50);
    // 10k draws from a million codes: a few hundred repeats at most, not a narrow generator.
    expect(codes.size).toBeGreaterThan(9_800);
  });
});

describe("cryptoRandom.characters", () => {
  const alphabet = "abcdefghijklmnopqrstuvwxyz234567";

  it("gives codes of the length asked for over the alphabet, each character about equally often", () => {
    const random = cryptoRandom();
    const counts = new Map<string, number>();
    for (let i = 0; i < 4_000; i++) {
      const code = random.characters(16, alphabet);
      expect(code).toMatch(/^[a-z2-7]{16}$/);
      for (const c of code) counts.set(c, (counts.get(c) ?? 0) + 1);
    }
    const total = 4_000 * 16;
    const expected = total / alphabet.length;
    const chi = [...alphabet].reduce((sum, c) => sum + ((counts.get(c) ?? 0) - expected) ** 2 / expected, 0);
    // 31 degrees of freedom: a uniform source exceeds 90 about once in ten million runs.
    expect(chi).toBeLessThan(90);
  });

  it("refuses a bad length or an alphabet of fewer than two characters", () => {
    const random = cryptoRandom();
    expect(() => random.characters(-1, alphabet)).toThrow(RangeError);
    expect(() => random.characters(4, "a")).toThrow(RangeError);
  });
});
