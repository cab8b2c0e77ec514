import { describe, expect, it } from "vitest";
import { parseBanDuration } from "./ban-duration.js";

const HOUR = 3_600_000;

const reason = (input: string) => {
  const result = parseBanDuration(input);
  if (result.ok) throw new Error(`expected ${JSON.stringify(input)} to be refused`);
  expect(result.error).toMatchObject({ code: "validation_failed" });
  return result.error.message.replace("invalid format for ban duration: ", "");
};

describe("parseBanDuration", () => {
  it("reads none as lifting the ban", () => {
    expect(parseBanDuration("none")).toEqual({ ok: true, value: { kind: "none" } });
  });

  it("reads Go durations", () => {
    const cases: [string, number][] = [
      ["24h", 24 * HOUR],
      ["1h30m", 1.5 * HOUR],
      ["1.5h", 1.5 * HOUR],
      ["300ms", 300],
      ["2m3.5s", 123_500],
      ["+10s", 10_000],
      [".5s", 500],
      ["1.s", 1000],
      ["1h1h", 2 * HOUR],
      ["007s", 7000],
      ["0", 0],
      ["0s", 0],
      ["876000h", 876_000 * HOUR],
    ];
    for (const [input, ms] of cases) {
      expect(parseBanDuration(input), input).toEqual({ ok: true, value: { kind: "ban", ms } });
    }
  });

  it("reads every unit and rounds sub-millisecond values down", () => {
    expect(parseBanDuration("1500us")).toEqual({ ok: true, value: { kind: "ban", ms: 1 } });
    expect(parseBanDuration("2500µs")).toEqual({ ok: true, value: { kind: "ban", ms: 2 } });
    expect(parseBanDuration("2500μs")).toEqual({ ok: true, value: { kind: "ban", ms: 2 } });
    expect(parseBanDuration("999999ns")).toEqual({ ok: true, value: { kind: "ban", ms: 0 } });
    expect(parseBanDuration("3000000ns")).toEqual({ ok: true, value: { kind: "ban", ms: 3 } });
    expect(parseBanDuration("1.0000001ms")).toEqual({ ok: true, value: { kind: "ban", ms: 1 } });
  });

  it("explains what is wrong the way Go does", () => {
    expect(reason("")).toBe('time: invalid duration ""');
    expect(reason("abc")).toBe('time: invalid duration "abc"');
    expect(reason("10")).toBe('time: missing unit in duration "10"');
    expect(reason("1h30")).toBe('time: missing unit in duration "1h30"');
    expect(reason("1d")).toBe('time: unknown unit "d" in duration "1d"');
    expect(reason("1 h")).toBe('time: unknown unit " h" in duration "1 h"');
    expect(reason("1H")).toBe('time: unknown unit "H" in duration "1H"');
    expect(reason(".s")).toBe('time: invalid duration ".s"');
    expect(reason("+")).toBe('time: invalid duration "+"');
    expect(reason("None")).toBe('time: invalid duration "None"');
  });

  it("refuses negative durations", () => {
    expect(reason("-1h")).toBe("negative durations are not allowed");
    expect(parseBanDuration("-0")).toEqual({ ok: true, value: { kind: "ban", ms: 0 } });
  });

  it("refuses durations beyond Go's int64 nanoseconds", () => {
    expect(parseBanDuration("2562047h")).toMatchObject({ ok: true });
    expect(reason("2562048h")).toBe('time: invalid duration "2562048h"');
    expect(reason("9223372036854775808ns")).toBe('time: invalid duration "9223372036854775808ns"');
    expect(reason(`${"9".repeat(100_000)}h`)).toMatch(/^time: invalid duration/);
  });
});
