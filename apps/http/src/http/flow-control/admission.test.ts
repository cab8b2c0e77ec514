import { describe, expect, it } from "vitest";
import { admission, admissionWaitMs, stepAside } from "./admission.js";

const tick = (ms = 5) => new Promise((resolve) => setTimeout(resolve, ms));

describe("admission", () => {
  it("runs at most `max` at once, starts the others in arrival order, and records their wait", async () => {
    const admit = admission(2).run;
    const gates: (() => void)[] = [];
    const started: number[] = [];
    const requests = [0, 1, 2, 3].map((n) => ({ n }));
    const answers = requests.map((request) =>
      admit(request, async () => {
        started.push(request.n);
        await new Promise<void>((release) => gates.push(release));
        return request.n;
      }),
    );
    await tick();
    expect(started).toEqual([0, 1]);
    await tick(30);
    gates.shift()?.();
    await tick();
    expect(started).toEqual([0, 1, 2]);
    for (let i = 0; i < 3; i++) {
      gates.shift()?.();
      await tick();
    }
    expect(await Promise.all(answers)).toEqual([0, 1, 2, 3]);
    expect(started).toEqual([0, 1, 2, 3]);
    expect(admissionWaitMs(requests[0])).toBeUndefined();
    expect(admissionWaitMs(requests[2])).toBeGreaterThanOrEqual(30);
  });

  it("0 admits everything at once", async () => {
    const admit = admission(0).run;
    let running = 0;
    const gates: (() => void)[] = [];
    const answers = [1, 2, 3].map((n) =>
      admit({}, async () => {
        running++;
        await new Promise<void>((release) => gates.push(release));
        return n;
      }),
    );
    await tick();
    expect(running).toBe(3);
    for (const release of gates) release();
    expect(await Promise.all(answers)).toEqual([1, 2, 3]);
  });
});

describe("stepping aside", () => {
  it("gives the slot to the next request while waiting, and comes back at once, past the limit", async () => {
    const { run } = admission(1);
    const order: string[] = [];
    let finishWait: () => void = () => {};
    const first = {};
    const a = run(first, async () => {
      order.push("a starts");
      const aside = stepAside(first);
      await aside?.(() => new Promise<void>((resolve) => (finishWait = resolve)));
      order.push("a resumes");
    });
    await tick();
    const b = run({}, async () => {
      order.push("b runs");
      await tick(20);
      order.push("b ends");
    });
    const c = run({}, async () => {
      order.push("c runs");
    });
    await tick();
    // a waits aside: b took its slot; c waits for a slot.
    expect(order).toEqual(["a starts", "b runs"]);
    finishWait();
    await Promise.all([a, b, c]);
    // a came back without waiting (it may hold a pooled connection); c waited until both had left.
    expect(order).toEqual(["a starts", "b runs", "a resumes", "b ends", "c runs"]);
  });

  it("is absent for a request that was not admitted through it", () => {
    expect(stepAside({})).toBeUndefined();
    expect(stepAside(undefined)).toBeUndefined();
  });
});
