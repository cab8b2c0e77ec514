import { execFileSync } from "node:child_process";
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { listen } from "./server.js";

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
