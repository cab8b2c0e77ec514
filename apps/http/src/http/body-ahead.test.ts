import { createServer, type IncomingMessage, type Server } from "node:http";
import { type AddressInfo, connect, type Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import {
  type BodyAhead,
  BodyBudget,
  type BodyFailure,
  type BodyLimits,
  bodyFailureOf,
  bodyReadAhead,
  readBodyAhead,
} from "./body-ahead.js";

const limits = (over: Partial<BodyLimits> = {}): BodyLimits => ({
  maxBytes: 1_000,
  timeoutMs: 300,
  freeBytes: 1_000,
  budget: new BodyBudget(0),
  ...over,
});

type Seen = { failure: BodyFailure | undefined; stamped: BodyFailure | undefined; body?: string };

const servers: Server[] = [];
const sockets: Socket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

/**
 * A server that reads each request's body ahead under `bodyLimits` and keeps what came of it, by
 * path; `send` writes raw bytes on a fresh connection, `after` runs once they are sent.
 */
async function reader(
  bodyLimits: BodyLimits,
  clientOf: (req: IncomingMessage) => string | undefined = () => undefined,
) {
  const outcomes = new Map<string, { seen: Seen; ahead: BodyAhead }>();
  const waiting = new Map<string, () => void>();
  const server = createServer(async (req: IncomingMessage, res) => {
    const ahead = await readBodyAhead(req, bodyLimits, () => clientOf(req));
    const rawBody = (req as { rawBody?: Buffer }).rawBody;
    const seen: Seen = {
      failure: ahead.failure,
      stamped: bodyFailureOf(req),
      ...(bodyReadAhead(req) ? { body: rawBody?.toString() } : {}),
    };
    outcomes.set(req.url ?? "", { seen, ahead });
    waiting.get(req.url ?? "")?.();
    res.end();
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const outcome = (path: string) =>
    new Promise<{ seen: Seen; ahead: BodyAhead }>((resolve) => {
      const done = () => resolve(outcomes.get(path) as { seen: Seen; ahead: BodyAhead });
      if (outcomes.has(path)) done();
      else waiting.set(path, done);
    });
  const send = (path: string, headers: string, body: string, after?: (socket: Socket) => void) => {
    const socket = connect({ port, host: "127.0.0.1" }, () =>
      socket.write(`POST ${path} HTTP/1.1\r\nHost: localhost\r\n${headers}\r\n\r\n${body}`, () =>
        after?.(socket),
      ),
    );
    socket.on("error", () => {});
    sockets.push(socket);
    return outcome(path);
  };
  return { send };
}

const seenOf = async (outcome: Promise<{ seen: Seen }>) => (await outcome).seen;

describe("readBodyAhead", () => {
  it("reads a whole body, of declared length or chunked, and leaves it where the app reads it", async () => {
    const { send } = await reader(limits());
    expect(await seenOf(send("/length", "Content-Length: 7", '{"a":1}'))).toEqual({
      failure: undefined,
      stamped: undefined,
      body: '{"a":1}',
    });
    const chunked = '3\r\n{"a\r\n4\r\n":1}\r\n0\r\n\r\n';
    expect(await seenOf(send("/chunked", "Transfer-Encoding: chunked", chunked))).toEqual({
      failure: undefined,
      stamped: undefined,
      body: '{"a":1}',
    });
  });

  it("refuses a declared length over the limit without reading it, and a chunked body once past it", async () => {
    const { send } = await reader(limits());
    const tooLarge = { failure: "too_large", stamped: "too_large" };
    expect(await seenOf(send("/declared", "Content-Length: 1001", ""))).toEqual(tooLarge);
    const big = "x".repeat(1_001);
    const chunked = `${big.length.toString(16)}\r\n${big}\r\n0\r\n\r\n`;
    expect(await seenOf(send("/chunked", "Transfer-Encoding: chunked", chunked))).toEqual(tooLarge);
  });

  it("gives up on a body that does not arrive in time, chunked or short of its length", async () => {
    const { send } = await reader(limits());
    const started = performance.now();
    const timedOut = { failure: "timed_out", stamped: "timed_out" };
    const both = await Promise.all([
      seenOf(send("/short", "Content-Length: 100", '{"a":')),
      seenOf(send("/chunked", "Transfer-Encoding: chunked", '40\r\n{"a":')),
    ]);
    expect(both).toEqual([timedOut, timedOut]);
    expect(performance.now() - started).toBeGreaterThanOrEqual(300 - 20);
  });

  it("notices a client that goes away mid-body", async () => {
    const { send } = await reader(limits());
    const gone = send("/gone", "Content-Length: 100", '{"a":', (socket) => socket.destroy());
    expect(await seenOf(gone)).toEqual({ failure: "ended_early", stamped: "ended_early" });
  });

  it("holds no more memory than the shared budget beyond each body's free share, until released", async () => {
    // 10 bytes free per body, 10 more shared: one 20-byte body at a time.
    const { send } = await reader(limits({ freeBytes: 10, budget: new BodyBudget(10) }));
    const body = "0123456789abcdefghij";
    const first = await send("/first", "Content-Length: 20", body);
    expect(first.seen.body).toBe(body);
    // The budget is the first's until it is answered: the second stops reading and runs out of time.
    expect(await seenOf(send("/second", "Content-Length: 20", body))).toEqual({
      failure: "timed_out",
      stamped: "timed_out",
    });
    first.ahead.release();
    expect((await send("/third", "Content-Length: 20", body)).seen.body).toBe(body);
    // Small bodies never wait for it.
    expect((await send("/small", "Content-Length: 10", body.slice(0, 10))).seen.body).toBe("0123456789");
  });

  it("lets one client hold no more than its share of the budget: the others' large bodies still come in", async () => {
    // 10 bytes free per body, 20 shared, 10 of them per client: two clients' 20-byte bodies at once.
    const budget = new BodyBudget(20, 10);
    const { send } = await reader(limits({ freeBytes: 10, budget }), (req) =>
      String(req.headers["x-client"]),
    );
    const body = "0123456789abcdefghij";
    const first = await send("/a1", "X-Client: a\r\nContent-Length: 20", body);
    expect(first.seen.body).toBe(body);
    // The same client's second large body waits for its share and runs out of time...
    expect(await seenOf(send("/a2", "X-Client: a\r\nContent-Length: 20", body))).toEqual({
      failure: "timed_out",
      stamped: "timed_out",
    });
    // ...while another client's is read from what is left.
    expect((await send("/b1", "X-Client: b\r\nContent-Length: 20", body)).seen.body).toBe(body);
    // Given back, the share is the client's again.
    first.ahead.release();
    expect((await send("/a3", "X-Client: a\r\nContent-Length: 20", body)).seen.body).toBe(body);
  });
});
