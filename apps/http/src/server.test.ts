import { execFileSync } from "node:child_process";
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { listen } from "./server.js";
import { testApp } from "./testing/test-app.js";

describe("listen", () => {
  it("keeps a listen queue long enough for 1,000 clients connecting at once", async () => {
    const server = await listen(new Hono(), { host: "127.0.0.1", port: 0 });
    try {
      const port = new URL(server.url).port;
      // For a listening socket, `ss` shows the backlog in the Send-Q column. Node's default, 511,
      // dropped the handshakes past it, and those clients waited a second or more for the retry.
      const line = execFileSync("ss", ["-Hltn", `sport = :${port}`], { encoding: "utf8" }).trim();
      expect(Number(line.split(/\s+/)[2])).toBeGreaterThanOrEqual(1000);
    } finally {
      await server.close();
    }
  });

  it("close() stops accepting but lets a request in flight finish", async () => {
    let release: () => void = () => {};
    let entered: () => void = () => {};
    const inHandler = new Promise<void>((resolve) => {
      entered = resolve;
    });
    const app = new Hono().get("/slow", async (c) => {
      entered();
      await new Promise<void>((resolve) => {
        release = resolve;
      });
      return c.json({ finished: true });
    });
    const server = await listen(app, { host: "127.0.0.1", port: 0 });

    const inFlight = fetch(`${server.url}/slow`);
    await inHandler;
    let closed = false;
    const closing = server.close().then(() => {
      closed = true;
    });
    // New connections are refused as soon as close() is called...
    await expect(fetch(`${server.url}/slow`, { headers: { connection: "close" } })).rejects.toThrow();
    expect(closed).toBe(false);
    // ...while the request already inside is answered in full.
    release();
    const res = await inFlight;
    expect(await res.json()).toEqual({ finished: true });
    await closing;
    expect(closed).toBe(true);
  });
});

describe("listen with maxConcurrentRequests", () => {
  it("works on at most that many requests at once; the rest are answered after, in full", async () => {
    let inside = 0;
    let peak = 0;
    const app = new Hono().get("/slow", async (c) => {
      inside++;
      peak = Math.max(peak, inside);
      await new Promise((resolve) => setTimeout(resolve, 50));
      inside--;
      return c.json({ ok: true });
    });
    const server = await listen(app, { host: "127.0.0.1", port: 0, maxConcurrentRequests: 2 });
    try {
      const started = performance.now();
      const answers = await Promise.all(
        Array.from({ length: 6 }, () => fetch(`${server.url}/slow`).then((r) => r.json())),
      );
      expect(answers).toEqual(Array.from({ length: 6 }, () => ({ ok: true })));
      expect(peak).toBe(2);
      // Three turns of 50 ms, not one.
      expect(performance.now() - started).toBeGreaterThanOrEqual(140);
    } finally {
      await server.close();
    }
  });

  it("answers liveness (GET /health) past the queue", async () => {
    let release: () => void = () => {};
    const app = new Hono()
      .get("/slow", async (c) => {
        await new Promise<void>((resolve) => {
          release = resolve;
        });
        return c.json({ ok: true });
      })
      .get("/health", (c) => c.json({ live: true }))
      .get("/auth/v1/health", (c) => c.json({ live: true }))
      .get("/other/health", (c) => c.json({ other: true }))
      .get("/settings", (c) => c.json({ settings: true }));
    const server = await listen(app, { host: "127.0.0.1", port: 0, maxConcurrentRequests: 1 });
    try {
      const slow = fetch(`${server.url}/slow`);
      await new Promise((resolve) => setTimeout(resolve, 50));
      const queued = fetch(`${server.url}/settings`);
      expect(await (await fetch(`${server.url}/health`)).json()).toEqual({ live: true });
      expect(await (await fetch(`${server.url}/auth/v1/health?probe=1`)).json()).toEqual({ live: true });
      // Another path that merely ends in /health waits its turn like any request.
      let other = false;
      void fetch(`${server.url}/other/health`).then(() => {
        other = true;
      });
      let settled = false;
      void queued.then(() => {
        settled = true;
      });
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(settled).toBe(false);
      expect(other).toBe(false);
      release();
      expect((await slow).status).toBe(200);
      expect(await (await queued).json()).toEqual({ settings: true });
    } finally {
      await server.close();
    }
  });
});

describe("admission and the hash pool", () => {
  it("requests waiting for a password hash do not hold their slots: other requests are answered meanwhile", async () => {
    const { app, auth } = testApp();
    // A hash pool that takes 400 ms per verification (an unknown address costs one, as a known one).
    const hasher = auth.hasher as { verifyDummy(password: string): Promise<void> };
    hasher.verifyDummy = () => new Promise((resolve) => setTimeout(resolve, 400));
    const server = await listen(app as unknown as Hono, {
      host: "127.0.0.1",
      port: 0,
      maxConcurrentRequests: 2,
    });
    try {
      const signIns = Array.from({ length: 4 }, (_, i) =>
        fetch(`${server.url}/token?grant_type=password`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ email: `nobody-${i}@example.com`, password: "wrong password" }),
        }),
      );
      await new Promise((resolve) => setTimeout(resolve, 50));
      const started = performance.now();
      const settings = await fetch(`${server.url}/settings`);
      const waited = performance.now() - started;
      expect(settings.status).toBe(200);
      expect(waited).toBeLessThan(300);
      expect((await Promise.all(signIns)).map((r) => r.status)).toEqual([400, 400, 400, 400]);
    } finally {
      await server.close();
    }
  });
});
