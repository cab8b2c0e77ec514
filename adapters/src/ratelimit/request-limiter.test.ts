import { describeRequestLimiter } from "@authsvc/core/testing";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectPostgres } from "../postgres/connect.js";
import { type FreshNamespace, migratedNamespace, testDatabase } from "../testing/database.js";
import { redisAnswers, TEST_REDIS_URL } from "../testing/redis.js";
import { memoryLimiterStore } from "./flexible-limiter.js";
import { postgresLimiterStore } from "./postgres-limiter.js";
import { redisLimiterStore } from "./redis-limiter.js";

const window = (name: string, points: number) => ({
  name: `${name}${Math.random().toString(36).slice(2, 8)}`,
  points,
  durationSec: 60,
});

describeRequestLimiter("memory (one process)", async () => memoryLimiterStore());

let ns: FreshNamespace;
describeRequestLimiter(`Postgres (${testDatabase().kind} database)`, async () => {
  ns = await migratedNamespace();
  const store = postgresLimiterStore(ns.sql, { namespace: ns.namespace });
  return { limiter: store.limiter, close: () => ns.drop() };
});

describe("Postgres request limits", () => {
  let shared: FreshNamespace;
  beforeAll(async () => {
    shared = await migratedNamespace();
  });
  afterAll(() => shared.drop());

  it("are one count for two instances, each with its own pool", async () => {
    const other = connectPostgres({ url: shared.url, maxPoolSize: 2, embedded: testDatabase().embedded });
    try {
      const w = window("verify", 4);
      const first = postgresLimiterStore(shared.sql, { namespace: shared.namespace }).limiter(w);
      const second = postgresLimiterStore(other, { namespace: shared.namespace }).limiter(w);
      expect([await first.take("198.51.100.1"), await second.take("198.51.100.1")]).toEqual([true, true]);
      expect([await first.take("198.51.100.1"), await second.take("198.51.100.1")]).toEqual([true, true]);
      expect([await first.take("198.51.100.1"), await second.take("198.51.100.1")]).toEqual([false, false]);
      const [row] =
        await shared.sql`select points from ${shared.sql(shared.namespace)}.request_limits where key = ${`${w.name}:198.51.100.1`}`;
      expect(row?.points).toBe(6);
    } finally {
      await other.end();
    }
  });

  it("count in the process, as the reference does, while the database cannot be reached", async () => {
    const down = connectPostgres({
      url: "postgres://postgres@127.0.0.1:1/none",
      maxPoolSize: 1,
      embedded: false,
    });
    const errors: unknown[] = [];
    try {
      const limiter = postgresLimiterStore(down, {
        namespace: "auth",
        onStoreError: (e) => errors.push(e),
      }).limiter(window("otp", 3));
      const outcomes = [];
      for (let i = 0; i < 4; i++) outcomes.push(await limiter.take("198.51.100.2"));
      expect(outcomes).toEqual([true, true, true, false]);
      expect(errors.length).toBeGreaterThan(0);
    } finally {
      await down.end({ timeout: 0 });
    }
  });
});

describe("Redis request limits", () => {
  it("count in the process while Redis cannot be reached", async () => {
    const errors: unknown[] = [];
    const store = redisLimiterStore("redis://127.0.0.1:1", { onStoreError: (e) => errors.push(e) });
    try {
      const limiter = store.limiter(window("otp", 3));
      const outcomes = [];
      for (let i = 0; i < 4; i++) outcomes.push(await limiter.take("198.51.100.3"));
      expect(outcomes).toEqual([true, true, true, false]);
    } finally {
      await store.close();
    }
  });
});

if (await redisAnswers(TEST_REDIS_URL)) {
  describeRequestLimiter(`Redis (${TEST_REDIS_URL})`, async () => {
    const store = redisLimiterStore(TEST_REDIS_URL);
    expect(await store.ready()).toBe(true);
    return store;
  });

  it(`Redis (${TEST_REDIS_URL}): one count for two instances, each with its own client`, async () => {
    const a = redisLimiterStore(TEST_REDIS_URL);
    const b = redisLimiterStore(TEST_REDIS_URL);
    const reader = new Redis(TEST_REDIS_URL);
    try {
      expect([await a.ready(), await b.ready()]).toEqual([true, true]);
      const w = window("verify", 3);
      const [first, second] = [a.limiter(w), b.limiter(w)];
      const outcomes = [];
      for (const limiter of [first, second, first, second]) outcomes.push(await limiter.take("198.51.100.4"));
      expect(outcomes).toEqual([true, true, true, false]);
      // Counted in Redis itself, not in either process's fallback.
      expect(await reader.get(`authsvc:auth:rl:${w.name}:198.51.100.4`)).toBe("4");
    } finally {
      reader.disconnect();
      await Promise.all([a.close(), b.close()]);
    }
  });
} else {
  // Said aloud rather than skipped: the run's report shows that only the other stores were tested.
  console.warn(`Redis request-limit suite NOT RUN: no Redis answers at ${TEST_REDIS_URL}`);
}
