import { describe, expect, it } from "vitest";
import { AdmissionRefusedError, admission, admissionWaitMs, stepAside } from "./admission.js";

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

describe("a bounded waiting line", () => {
  /** Work that runs until its gate is opened. */
  function gated() {
    const gates: (() => void)[] = [];
    const work = (n: number) => async (): Promise<number | string> => {
      await new Promise<void>((release) => gates.push(release));
      return n;
    };
    return { gates, work };
  }

  it("refuses at once a request past `maxQueued` waiting, and serves the ones within it", async () => {
    const { run } = admission(2, { maxQueued: 3 });
    const { gates, work } = gated();
    const answers = Array.from({ length: 8 }, (_, n) => run({}, work(n), () => `refused ${n}`));
    // Two working, three waiting: the last three are refused without waiting for anything.
    const refused = await Promise.all(answers.slice(5));
    expect(refused).toEqual(["refused 5", "refused 6", "refused 7"]);
    for (let i = 0; i < 5; i++) {
      await tick();
      gates.shift()?.();
    }
    expect(await Promise.all(answers.slice(0, 5))).toEqual([0, 1, 2, 3, 4]);
    // The line has room again.
    const later = run({}, async (): Promise<number | string> => "served");
    expect(await later).toBe("served");
  });

  it("refuses a request that waited `maxWaitMs`, and its place passes to the next", async () => {
    const { run } = admission(1, { maxWaitMs: 60 });
    const { gates, work } = gated();
    const first = run({}, work(0), () => "refused 0");
    const started = performance.now();
    const second = run({}, work(1), () => "refused 1");
    expect(await second).toBe("refused 1");
    expect(performance.now() - started).toBeGreaterThanOrEqual(55);
    const third = run({}, work(2), () => "refused 2");
    await tick();
    gates.shift()?.();
    expect(await first).toBe(0);
    // The refused request's place is skipped: the third gets the slot.
    await tick();
    gates.shift()?.();
    expect(await third).toBe(2);
  });

  it("rejects with AdmissionRefusedError when no refusal answer is given", async () => {
    const { run } = admission(1, { maxQueued: 1 });
    const { gates, work } = gated();
    const first = run({}, work(0));
    const second = run({}, work(1));
    await expect(run({}, work(2))).rejects.toBeInstanceOf(AdmissionRefusedError);
    await tick();
    gates.shift()?.();
    await tick();
    gates.shift()?.();
    expect(await Promise.all([first, second])).toEqual([0, 1]);
  });

  it("a request stepping aside does not count as waiting", async () => {
    const { run } = admission(1, { maxQueued: 1 });
    const request = {};
    let finishWait: () => void = () => {};
    const a = run(request, async () => {
      await stepAside(request)?.(() => new Promise<void>((resolve) => (finishWait = resolve)));
      return "a";
    });
    await tick();
    // a is aside: b takes the slot, c waits, d is refused.
    const { gates, work } = gated();
    const b = run({}, work(1));
    const c = run({}, work(2));
    const d = run({}, work(3), () => "refused");
    expect(await d).toBe("refused");
    finishWait();
    expect(await a).toBe("a");
    await tick();
    gates.shift()?.();
    await tick();
    gates.shift()?.();
    expect(await Promise.all([b, c])).toEqual([1, 2]);
  });
});
