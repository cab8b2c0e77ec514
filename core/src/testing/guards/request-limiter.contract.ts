import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RequestLimiter } from "../../guards/index.js";

/** Builds limiters of `points` requests per `durationSec` over one store, as separate instances would. */
export interface LimiterSubject {
  limiter(window: { name: string; points: number; durationSec: number }): RequestLimiter;
  close(): Promise<void>;
}

// core type-checks without Node's globals; the suite runs under Node, where this timer exists.
declare const setTimeout: (callback: () => void, ms: number) => unknown;

const takeMany = (limiter: RequestLimiter, key: string, times: number) =>
  Promise.all(Array.from({ length: times }, () => limiter.take(key)));

/**
 * What every `RequestLimiter` store must do. Names and keys are fresh per run, so a store that
 * outlives the run (a database, Redis) never sees an old count.
 */
export function describeRequestLimiter(name: string, start: () => Promise<LimiterSubject>): void {
  describe(`RequestLimiter contract: ${name}`, () => {
    let subject: LimiterSubject;
    const run = Math.random().toString(36).slice(2, 10);
    let seq = 0;
    const fresh = (points: number, durationSec = 60) =>
      subject.limiter({ name: `t${run}${seq++}`, points, durationSec });
    beforeAll(async () => {
      subject = await start();
    });
    afterAll(() => subject?.close());

    it("allows `points` requests from one client, then refuses", async () => {
      const limiter = fresh(5);
      for (let i = 0; i < 5; i++) expect(await limiter.take("203.0.113.1")).toBe(true);
      expect(await limiter.take("203.0.113.1")).toBe(false);
      expect(await limiter.take("203.0.113.1")).toBe(false);
    });

    it("counts each client, and each route family, on its own", async () => {
      const verify = fresh(2);
      const otp = fresh(2);
      await takeMany(verify, "203.0.113.1", 2);
      expect(await verify.take("203.0.113.1")).toBe(false);
      expect(await verify.take("203.0.113.2")).toBe(true);
      expect(await otp.take("203.0.113.1")).toBe(true);
    });

    it("lets exactly `points` of many concurrent requests through", async () => {
      const outcomes = await takeMany(fresh(10), "203.0.113.3", 40);
      expect(outcomes.filter(Boolean)).toHaveLength(10);
    });

    it("allows the client again once its window has passed", async () => {
      const limiter = fresh(2, 1);
      await takeMany(limiter, "203.0.113.4", 2);
      expect(await limiter.take("203.0.113.4")).toBe(false);
      // The window is one second of real time: the store, not this process, keeps the clock.
      await new Promise<void>((resolve) => setTimeout(() => resolve(), 1100));
      expect(await limiter.take("203.0.113.4")).toBe(true);
    });
  });
}
