import { describe, expect, it } from "vitest";
import { clampDate, timestampFromPostgres } from "./timestamps.js";

const iso = (text: string) => timestampFromPostgres(text).toISOString();

describe("timestampFromPostgres", () => {
  it("reads ordinary times as new Date does, in both the text format and JSON", () => {
    expect(iso("2025-01-02 03:04:05.123+00")).toBe("2025-01-02T03:04:05.123Z");
    expect(iso("2025-01-02T03:04:05.123456+00:00")).toBe("2025-01-02T03:04:05.123Z");
    expect(iso("9999-12-31 23:59:59.999+00")).toBe("9999-12-31T23:59:59.999Z");
  });

  it("clamps what a Date or RFC 3339 cannot hold to 0001-01-01 … 9999-12-31", () => {
    for (const text of [
      "infinity",
      "294276-12-31 23:59:59+00",
      "294276-12-31T23:59:59+00:00",
      "20000-01-01T00:00:00+00:00",
      "9999-12-31 23:59:59.9999+00",
    ]) {
      expect(iso(text)).toBe("9999-12-31T23:59:59.999Z");
    }
    for (const text of ["-infinity", "4713-01-01 00:00:00+00 BC", "-4712-01-01T00:00:00+00:00"]) {
      expect(iso(text)).toBe("0001-01-01T00:00:00.000Z");
    }
  });

  it("clampDate keeps a Date in range and reads an Invalid Date as the latest time", () => {
    const now = new Date();
    expect(clampDate(now)).toBe(now);
    expect(clampDate(new Date(Number.NaN)).toISOString()).toBe("9999-12-31T23:59:59.999Z");
    expect(clampDate(new Date(8.64e15)).toISOString()).toBe("9999-12-31T23:59:59.999Z");
  });
});
