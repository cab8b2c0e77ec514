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
