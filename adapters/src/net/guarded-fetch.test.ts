import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { guardedFetch } from "./guarded-fetch.js";
import { guardedLookup } from "./guarded-lookup.js";

let server: Server;
let port: number;
let hits = 0;

beforeAll(async () => {
  server = createServer((req, res) => {
    hits++;
    if (req.url === "/huge") {
      res.setHeader("content-type", "application/json");
      // No content-length: the limit must hold on the stream itself.
      res.write("[");
      for (let i = 0; i < 64; i++) res.write(`"${"x".repeat(32 * 1024)}",`);
      res.end('""]');
    } else if (req.url === "/redirect") {
      res.writeHead(302, { location: "http://10.0.0.1/metadata" }).end();
    } else {
      res.end(JSON.stringify({ ok: true }));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

const reason = async (call: Promise<unknown>) => {
  try {
    await call;
    return "answered";
  } catch (error) {
    const cause = (error as { cause?: Error }).cause;
    return `${(error as Error).message}: ${cause?.message ?? ""}`;
  }
};

describe("guardedFetch", () => {
  it("never connects to loopback without the test switch, by address or by name", async () => {
    const fetch = guardedFetch();
    const before = hits;
    expect(await reason(fetch(`http://127.0.0.1:${port}/`))).toMatch(/plain http/);
    expect(await reason(fetch(`https://127.0.0.1:${port}/`))).toMatch(/loopback/);
    expect(await reason(fetch(`https://localhost:${port}/`))).toMatch(/loopback/);
    expect(hits).toBe(before);
  });

  it("with the test switch reaches loopback, but follows no redirect to a private address", async () => {
    const fetch = guardedFetch({ allowLoopbackForTests: true });
    expect(await (await fetch(`http://127.0.0.1:${port}/`)).json()).toEqual({ ok: true });
    expect(await (await fetch(`http://localhost:${port}/`)).json()).toEqual({ ok: true });
    expect(await reason(fetch(`http://127.0.0.1:${port}/redirect`))).toMatch(/private or reserved/);
  });

  it("cuts an answer off past its limit", async () => {
    const fetch = guardedFetch({ allowLoopbackForTests: true, maxAnswerBytes: 1024 * 1024 });
    const response = await fetch(`http://127.0.0.1:${port}/huge`);
    expect(await reason(response.text())).toMatch(/larger than 1048576 bytes/);
  });
});

describe("guardedLookup", () => {
  it("hands the socket only addresses it checked", async () => {
    const lookup = (options: { all?: boolean }, allowLoopbackForTests: boolean) =>
      new Promise<unknown>((resolve) =>
        guardedLookup({ allowLoopbackForTests })("localhost", options, (error, address) =>
          resolve(error ? error.message : address),
        ),
      );
    expect(await lookup({ all: true }, false)).toMatch(/loopback/);
    expect(await lookup({}, true)).toMatch(/^(127\.0\.0\.1|::1)$/);
    expect(await lookup({ all: true }, true)).toEqual(
      expect.arrayContaining([expect.objectContaining({ family: expect.any(Number) })]),
    );
  });
});
