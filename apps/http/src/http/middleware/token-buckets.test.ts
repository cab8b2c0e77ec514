import { describe, expect, it } from "vitest";
import { TokenBuckets } from "./token-buckets.js";

const MINUTE = 60_000;

/** Buckets of 30 filling by 30 per 5 minutes (one token every 10 s), on a clock the test moves. */
function buckets(options: { refillPerWindow?: number; maxKeys?: number } = {}) {
  const clock = { now: 1_000_000 };
  const limiter = new TokenBuckets({
    capacity: 30,
    refillPerWindow: options.refillPerWindow ?? 30,
    windowMs: 5 * MINUTE,
    now: () => clock.now,
    ...(options.maxKeys !== undefined ? { maxKeys: options.maxKeys } : {}),
  });
  const takeTimes = (key: string, times: number) =>
    Array.from({ length: times }, () => limiter.take(key)).filter(Boolean).length;
  return { clock, limiter, takeTimes };
}

describe("TokenBuckets", () => {
  it("allows a burst of the capacity, then refuses", () => {
    const { limiter, takeTimes } = buckets();
    expect(takeTimes("1.2.3.4", 30)).toBe(30);
    expect(limiter.take("1.2.3.4")).toBe(false);
    expect(limiter.take("1.2.3.4")).toBe(false);
  });

  it("refills at the configured rate", () => {
    const { clock, limiter, takeTimes } = buckets();
    takeTimes("ip", 30);
    clock.now += 9_999;
    expect(limiter.take("ip")).toBe(false);
    clock.now += 1;
    expect(limiter.take("ip")).toBe(true);
    expect(limiter.take("ip")).toBe(false);
    clock.now += MINUTE; // six more tokens
    expect(takeTimes("ip", 10)).toBe(6);
  });

  it("refills faster when the limit is higher, but never beyond the capacity", () => {
    const { clock, limiter, takeTimes } = buckets({ refillPerWindow: 150 });
    takeTimes("ip", 30);
    clock.now += 2_000; // 150 per 5 minutes is one every 2 s
    expect(takeTimes("ip", 2)).toBe(1);
    clock.now += 60 * MINUTE;
    expect(takeTimes("ip", 40)).toBe(30);
    expect(limiter.take("ip")).toBe(false);
  });

  it("does not mint tokens when the clock steps back", () => {
    const { clock, limiter, takeTimes } = buckets();
    takeTimes("ip", 30);
    clock.now -= MINUTE;
    expect(limiter.take("ip")).toBe(false);
  });

  it("counts each key on its own", () => {
    const { limiter, takeTimes } = buckets();
    takeTimes("1.2.3.4", 30);
    expect(limiter.take("1.2.3.4")).toBe(false);
    expect(limiter.take("5.6.7.8")).toBe(true);
    expect(takeTimes("5.6.7.8", 29)).toBe(29);
  });

  it("forgets keys idle long enough to be full again, without changing any answer", () => {
    const { clock, limiter, takeTimes } = buckets();
    takeTimes("old", 30);
    clock.now += 2 * MINUTE;
    takeTimes("recent", 30);
    expect(limiter.size).toBe(2);
    clock.now += 3 * MINUTE; // "old" has refilled completely, "recent" has not
    expect(limiter.take("other")).toBe(true);
    expect(limiter.size).toBe(2);
    expect(takeTimes("old", 31)).toBe(30);
    expect(takeTimes("recent", 31)).toBe(18); // 3 minutes → 18 tokens
  });

  it("keeps at most maxKeys, forgetting the least recently seen first", () => {
    const { limiter, takeTimes } = buckets({ maxKeys: 3 });
    takeTimes("a", 30);
    takeTimes("b", 30);
    takeTimes("c", 30);
    expect(limiter.take("a")).toBe(false); // "a" is now the most recently seen
    expect(limiter.take("d")).toBe(true); // evicts "b"
    expect(limiter.size).toBe(3);
    expect(limiter.take("a")).toBe(false);
    expect(limiter.take("c")).toBe(false);
    expect(limiter.take("b")).toBe(true); // forgotten: a full bucket again
    for (let i = 0; i < 1000; i++) limiter.take(`10.0.${i >> 8}.${i & 255}`);
    expect(limiter.size).toBe(3);
  });
});
