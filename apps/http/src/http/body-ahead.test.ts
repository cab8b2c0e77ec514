import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { connect } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { type BodyFailure, bodyFailureOf, bodyReadAhead, readBodyAhead } from "./body-ahead.js";

const LIMITS = { maxBytes: 1_000, timeoutMs: 300 };
let server: Server | undefined;
afterEach(async () => {
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = undefined;
});

/**
 * Sends `raw` on a fresh connection to a server that reads each request's body ahead; resolves with
 * the outcome, the stamp the app reads, and the body left for it. `after` runs once the bytes are sent.
 */
async function outcomeOf(raw: string, after?: (socket: ReturnType<typeof connect>) => void) {
  type Seen = { failure: BodyFailure | undefined; stamped: BodyFailure | undefined; body?: string };
  let report: (seen: Seen) => void = () => {};
  const seen = new Promise<Seen>((resolve) => {
    report = resolve;
  });
  const listening = createServer(async (req: IncomingMessage, res) => {
    const failure = await readBodyAhead(req, LIMITS);
    const rawBody = (req as { rawBody?: Buffer }).rawBody;
    report({
      failure,
      stamped: bodyFailureOf(req),
      ...(bodyReadAhead(req) ? { body: rawBody?.toString() } : {}),
    });
    res.end();
  });
  server = listening;
  await new Promise<void>((resolve) => listening.listen(0, "127.0.0.1", resolve));
  const { port } = listening.address() as AddressInfo;
  const socket = connect({ port, host: "127.0.0.1" }, () => socket.write(raw, () => after?.(socket)));
  socket.on("error", () => {});
  const outcome = await seen;
  socket.destroy();
  return outcome;
}

const head = (headers: string) => `POST /x HTTP/1.1\r\nHost: localhost\r\n${headers}\r\n\r\n`;

describe("readBodyAhead", () => {
  it("reads a whole body, of declared length or chunked, and leaves it where the app reads it", async () => {
    expect(await outcomeOf(`${head("Content-Length: 7")}{"a":1}`)).toEqual({
      failure: undefined,
      stamped: undefined,
      body: '{"a":1}',
    });
    expect(
      await outcomeOf(`${head("Transfer-Encoding: chunked")}3\r\n{"a\r\n4\r\n":1}\r\n0\r\n\r\n`),
    ).toEqual({
      failure: undefined,
      stamped: undefined,
      body: '{"a":1}',
    });
  });

  it("refuses a declared length over the limit without reading it, and a chunked body once past it", async () => {
    expect(await outcomeOf(head("Content-Length: 1001"))).toEqual({
      failure: "too_large",
      stamped: "too_large",
    });
    const big = "x".repeat(1_001);
    expect(
      await outcomeOf(
        `${head("Transfer-Encoding: chunked")}${big.length.toString(16)}\r\n${big}\r\n0\r\n\r\n`,
      ),
    ).toEqual({ failure: "too_large", stamped: "too_large" });
  });

  it("gives up on a body that does not arrive in time, chunked or short of its length", async () => {
    const started = performance.now();
    expect(await outcomeOf(`${head("Content-Length: 100")}{"a":`)).toEqual({
      failure: "timed_out",
      stamped: "timed_out",
    });
    expect(await outcomeOf(`${head("Transfer-Encoding: chunked")}40\r\n{"a":`)).toEqual({
      failure: "timed_out",
      stamped: "timed_out",
    });
    expect(performance.now() - started).toBeGreaterThanOrEqual(2 * LIMITS.timeoutMs - 20);
  });

  it("notices a client that goes away mid-body", async () => {
    expect(await outcomeOf(`${head("Content-Length: 100")}{"a":`, (socket) => socket.destroy())).toEqual({
      failure: "ended_early",
      stamped: "ended_early",
    });
  });
});
