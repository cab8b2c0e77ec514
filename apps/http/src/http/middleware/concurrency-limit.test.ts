import { fakeDeps } from "@authsvc/core/testing";
import { Hono } from "hono";
import { HTTPException } from "hono/http-exception";
import { describe, expect, it } from "vitest";
import type { AppEnv } from "../app-env.js";
import { errorResponse, toAuthError } from "../errors.js";
import { requestDeadline } from "../flow-control/index.js";
import { concurrencyLimit } from "./concurrency-limit.js";

/** An app whose one route waits until released, recording how many run at once. */
function gatedApp(max: number) {
  const app = new Hono<AppEnv>();
  let running = 0;
  let peak = 0;
  const gates: Array<() => void> = [];
  const order: number[] = [];
  app.post("/work/:n", concurrencyLimit(max), async (c) => {
    running++;
    peak = Math.max(peak, running);
    order.push(Number(c.req.param("n")));
    await new Promise<void>((resolve) => gates.push(resolve));
    running--;
    return c.json({ n: Number(c.req.param("n")) });
  });
  const settle = () => new Promise((r) => setTimeout(r, 5));
  return { app, gates, order, peak: () => peak, running: () => running, settle };
}

describe("concurrencyLimit", () => {
  it("runs at most `max` requests at once and starts the others in arrival order", async () => {
    const t = gatedApp(2);
    const answers = Array.from({ length: 5 }, (_, n) => t.app.request(`/work/${n}`, { method: "POST" }));
    await t.settle();
    expect(t.running()).toBe(2);
    while (t.gates.length > 0 || t.order.length < 5) {
      t.gates.shift()?.();
      await t.settle();
    }
    const bodies = await Promise.all(answers.map(async (r) => (await r).json()));
    expect(bodies).toEqual([0, 1, 2, 3, 4].map((n) => ({ n })));
    expect(t.peak()).toBe(2);
    expect(t.order).toEqual([0, 1, 2, 3, 4]);
  });

  it("0 means no limit", async () => {
    const t = gatedApp(0);
    const answers = Array.from({ length: 5 }, (_, n) => t.app.request(`/work/${n}`, { method: "POST" }));
    await t.settle();
    expect(t.running()).toBe(5);
    for (const release of t.gates.splice(0)) release();
    await Promise.all(answers);
  });
});

describe("concurrencyLimit under a request deadline", () => {
  it("does not start a request that was answered 504 while it waited", async () => {
    const app = new Hono<AppEnv>();
    app.use(requestDeadline(50, fakeDeps()));
    const started: string[] = [];
    app.post("/work/:id", concurrencyLimit(1), async (c) => {
      started.push(c.req.param("id"));
      await new Promise((r) => setTimeout(r, 150));
      return c.json({ ok: true });
    });
    app.onError((thrown, c) =>
      errorResponse(c, toAuthError(thrown instanceof HTTPException ? thrown.cause : thrown)),
    );
    const [first, second] = await Promise.all([
      app.request("/work/first", { method: "POST" }),
      app.request("/work/second", { method: "POST" }),
    ]);
    expect(first.status).toBe(504);
    expect(second.status).toBe(504);
    await new Promise((r) => setTimeout(r, 200)); // the first has finished and freed its turn
    expect(started).toEqual(["first"]);
  });
});
