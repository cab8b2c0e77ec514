import { connect, type Socket } from "node:net";
import { Hono } from "hono";
import { afterEach, describe, expect, it } from "vitest";
import { bodyFailureOf } from "./http/body-ahead.js";
import { incomingOf } from "./http/incoming.js";
import { MAX_BODY_BYTES } from "./http/middleware/json-body.js";
import { listen, type RunningServer } from "./server.js";

const BODY_TIMEOUT_MS = 4_000;
const servers: RunningServer[] = [];
const sockets: Socket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** A connection from `localAddress` that writes `head` and `bodyBytes` bytes of body; resolves once handed to the kernel. */
function sendFrom(url: string, localAddress: string, head: string, bodyBytes: number) {
  const { port } = new URL(url);
  let received = "";
  const socket = connect({ host: "127.0.0.1", port: Number(port), localAddress });
  sockets.push(socket);
  socket.setEncoding("utf8");
  socket.on("data", (chunk: string) => {
    received += chunk;
  });
  socket.on("error", () => {});
  const answered = new Promise<string>((resolve) => {
    socket.on("data", () => {
      if (/\r\n\r\n/.test(received)) resolve(received.slice(0, received.indexOf("\r\n")));
    });
    socket.on("close", () => resolve(received.slice(0, received.indexOf("\r\n"))));
  });
  const written = new Promise<void>((resolve) =>
    socket.on("connect", () =>
      socket.write(Buffer.concat([Buffer.from(head), Buffer.alloc(bodyBytes, 0x20)]), () => resolve()),
    ),
  );
  return { written, answered };
}

const post = (length: number) =>
  `POST /echo HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`;

describe("listen: bodies read ahead", () => {
  it("lets no one client hold the memory budget: another's large body still comes in while it trickles 70", async () => {
    // As the app does (app.ts): a body that did not come in is refused, else echoed back.
    const app = new Hono().post("/echo", async (c) =>
      bodyFailureOf(incomingOf(c)) === undefined
        ? c.json({ bytes: (await c.req.text()).length })
        : c.json({ error: "request_timeout" }, 408),
    );
    const server = await listen(app, { host: "127.0.0.1", port: 0, bodyTimeoutMs: BODY_TIMEOUT_MS });
    servers.push(server);
    // 70 bodies of the largest size, each one byte short: more than the whole budget (64 of them).
    const hog = Array.from({ length: 70 }, () =>
      sendFrom(server.url, "127.0.0.1", post(MAX_BODY_BYTES), MAX_BODY_BYTES - 1),
    );
    await Promise.all(hog.map((h) => h.written));
    // Once the server has answered a later request of that client, it has read what it could of theirs.
    const ping = sendFrom(server.url, "127.0.0.1", post(2), 2);
    expect(await ping.answered).toBe("HTTP/1.1 200 OK");

    const started = performance.now();
    const other = sendFrom(server.url, "127.0.0.2", post(MAX_BODY_BYTES), MAX_BODY_BYTES);
    expect(await other.answered).toBe("HTTP/1.1 200 OK");
    // At once, not once the trickling ones have run out of time and given their memory back.
    expect(performance.now() - started).toBeLessThan(BODY_TIMEOUT_MS / 4);
    // The trickling ones run out of time.
    expect(new Set(await Promise.all(hog.map((h) => h.answered)))).toEqual(
      new Set(["HTTP/1.1 408 Request Timeout"]),
    );
  }, 20_000);
});
