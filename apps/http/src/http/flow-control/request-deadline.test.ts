import type { AuthDeps } from "@authsvc/core";
import { fakeDeps } from "@authsvc/core/testing";
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import type { AppEnv } from "../app-env.js";
import { admission } from "./admission.js";
import { requestDeadline } from "./request-deadline.js";
import { DELIVERY_TRANSACTIONS } from "./store-binding.js";

/** Fake ports whose transactions take 20 ms each, counting how many run at once, by phase. */
function countedDeps() {
  const auth: AuthDeps = fakeDeps();
  const peak = { running: 0, beforeAnswer: 0, afterAnswer: 0 };
  let answered = false;
  const inner = auth.store.transaction.bind(auth.store);
  const store = auth.store as { transaction: AuthDeps["store"]["transaction"] };
  store.transaction = async (fn) => {
    peak.running++;
    const phase = answered ? "afterAnswer" : "beforeAnswer";
    peak[phase] = Math.max(peak[phase], peak.running);
    try {
      await new Promise((resolve) => setTimeout(resolve, 20));
      return await inner(fn);
    } finally {
      peak.running--;
    }
  };
  // A queue that starts every delivery at once: any limit seen is the deadline's own.
  const done: Promise<unknown>[] = [];
  (auth as { deliveries: AuthDeps["deliveries"] }).deliveries = {
    enqueue: (job) => {
      answered = true;
      done.push(job());
    },
  };
  return { auth, peak, done };
}

describe("requestDeadline: work after the answer", () => {
  it(`runs at most ${DELIVERY_TRANSACTIONS} delivery transactions at once; the request's own are not held`, async () => {
    const { auth, peak, done } = countedDeps();
    const app = new Hono<AppEnv>();
    app.use(requestDeadline(5_000, auth));
    app.post("/burst", async (c) => {
      const deps = c.get("deps");
      await Promise.all([1, 2, 3].map(() => deps.store.transaction(async () => null)));
      for (let i = 0; i < 6; i++) {
        await deps.deliveries.enqueue(async () => {
          await deps.store.transaction(async () => null);
          return null;
        });
      }
      return c.json({});
    });
    const res = await app.request("/burst", { method: "POST" });
    expect(res.status).toBe(200);
    await Promise.all(done);
    expect(done).toHaveLength(6);
    expect(peak.beforeAnswer).toBe(3);
    expect(peak.afterAnswer).toBe(DELIVERY_TRANSACTIONS);
  });
});

describe("requestDeadline: admitted requests", () => {
  it("wait on the hasher aside while answering; their deliveries use the plain hasher", async () => {
    const auth: AuthDeps = fakeDeps();
    const done: Promise<unknown>[] = [];
    (auth as { deliveries: AuthDeps["deliveries"] }).deliveries = {
      enqueue: (job) => {
        done.push(job());
      },
    };
    const seen: { phase: string; plain: boolean }[] = [];
    const app = new Hono<AppEnv>();
    app.use(requestDeadline(5_000, auth));
    app.post("/x", async (c) => {
      const deps = c.get("deps");
      seen.push({ phase: "handler", plain: deps.hasher === auth.hasher });
      await deps.hasher.hash("a password");
      await deps.deliveries.enqueue(async () => {
        seen.push({ phase: "delivery", plain: deps.hasher === auth.hasher });
        await deps.hasher.hash("a password");
        return null;
      });
      return c.json({});
    });
    const { run } = admission(1);
    const incoming = {};
    const res = await run(incoming, () => app.request("/x", { method: "POST" }, { incoming }));
    expect(res.status).toBe(200);
    await Promise.all(done);
    expect(seen).toEqual([
      { phase: "handler", plain: false },
      { phase: "delivery", plain: true },
    ]);
    // The one slot is free again: the next request is admitted at once.
    let ran = false;
    await run({}, async () => {
      ran = true;
    });
    expect(ran).toBe(true);
  });
});

describe("requestDeadline: deliveries queued by a delivery", () => {
  it("are handed on, not held for an answer already given", async () => {
    const { auth, done } = countedDeps();
    const ran: string[] = [];
    const app = new Hono<AppEnv>();
    app.use(requestDeadline(5_000, auth));
    app.post("/x", async (c) => {
      const deps = c.get("deps");
      await deps.deliveries.enqueue(async () => {
        ran.push("first");
        await deps.deliveries.enqueue(async () => {
          ran.push("second");
          return null;
        });
        return null;
      });
      return c.json({});
    });
    expect((await app.request("/x", { method: "POST" })).status).toBe(200);
    await Promise.all(done);
    await Promise.all(done); // the second, pushed while the first ran
    expect(ran).toEqual(["first", "second"]);
  });
});
