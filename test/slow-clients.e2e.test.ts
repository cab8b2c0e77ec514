import { mkdtempSync, rmSync } from "node:fs";
import { connect, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type FreshNamespace, migratedNamespace } from "@authsvc/adapters/testing";
import { productionServerEnv } from "@authsvc/http/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ServerProcess, startServer } from "./support/server-process.js";

/**
 * Clients that send their headers and then trickle (or never finish) their bodies hold only their
 * sockets: 80 of them — more than the 64 admission slots — do not stop sign-ups and `GET /settings`,
 * and each gets `408 request_timeout` and a closed connection once the body time limit passes.
 */
const BODY_TIMEOUT_MS = 1_500;
const SLOW_CLIENTS = 80;
const cwd = mkdtempSync(join(tmpdir(), "authsvc-slow-clients-"));
let ns: FreshNamespace;
let server: ServerProcess;

beforeAll(async () => {
  ns = await migratedNamespace();
  server = await startServer(
    productionServerEnv(ns, {
      AUTHSVC_MAILER_AUTOCONFIRM: "true",
      AUTHSVC_API_BODY_TIMEOUT: `${BODY_TIMEOUT_MS}ms`,
      AUTHSVC_API_MAX_CONCURRENT_REQUESTS: "64",
      AUTHSVC_DB_MAX_POOL_SIZE: "5",
    }),
    { cwd },
  );
  // The first sign-up starts the hashing pool; its cold start is not what is measured.
  await signUp("warm-up");
}, 60_000);

afterAll(async () => {
  await server?.stop();
  await ns?.drop();
  rmSync(cwd, { recursive: true, force: true });
});

/** A raw connection: what it received, and when it was closed (ms after `opened`). */
interface RawClient {
  readonly socket: Socket;
  readonly opened: number;
  received: string;
  closedAfterMs?: number;
}

/** Opens a connection and writes `text` on it; resolves once the bytes have been handed to the kernel. */
function openRaw(text: string): Promise<RawClient> {
  const { hostname, port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) });
    const client: RawClient = { socket, opened: performance.now(), received: "" };
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => {
      client.received += chunk;
    });
    socket.on("close", () => {
      client.closedAfterMs = performance.now() - client.opened;
    });
    socket.once("error", reject);
    socket.once("connect", () => socket.write(text, () => resolve(client)));
  });
}

const slowBody = (i: number) => {
  const head = `POST /signup HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n`;
  const start = `{"email":"slow-${i}@example.com",`;
  // Half chunked (a chunk begun, never finished), half short of their declared length.
  return i % 2 === 0
    ? `${head}Transfer-Encoding: chunked\r\n\r\n40\r\n${start}`
    : `${head}Content-Length: 200\r\n\r\n${start}`;
};

const signUp = (name: string) =>
  fetch(`${server.url}/signup`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: `${name}@example.com`, password: "a-Good-pass-123" }),
  });

/** Runs `request` until `done()`, recording each answer's status and latency. */
async function keepAsking(request: () => Promise<Response>, done: () => boolean) {
  const answers: { status: number; ms: number }[] = [];
  while (!done()) {
    const started = performance.now();
    const res = await request();
    await res.arrayBuffer();
    answers.push({ status: res.status, ms: Math.round(performance.now() - started) });
  }
  return answers;
}

describe("slow request bodies", () => {
  it("hold no admission slot: sign-ups and GET /settings answer within a second, the slow ones get 408 and a close", async () => {
    const slow = await Promise.all(Array.from({ length: SLOW_CLIENTS }, (_, i) => openRaw(slowBody(i))));
    const allClosed = () => slow.every((c) => c.closedAfterMs !== undefined);
    // Stop after the slow ones are gone, or long after they should be (then the test fails below).
    const giveUp = performance.now() + BODY_TIMEOUT_MS + 4_000;
    const done = () => allClosed() || performance.now() > giveUp;
    let n = 0;
    const [settings, signups] = await Promise.all([
      keepAsking(() => fetch(`${server.url}/settings`), done),
      keepAsking(() => signUp(`fast-${n++}`), done),
    ]);
    for (const c of slow) c.socket.destroy();

    expect(settings.length).toBeGreaterThan(0);
    expect(signups.length).toBeGreaterThan(0);
    for (const answer of [...settings, ...signups]) {
      expect(answer.status).toBe(200);
      expect(answer.ms).toBeLessThan(1_000);
    }
    for (const c of slow) {
      expect(c.received).toMatch(/^HTTP\/1\.1 408 /);
      expect(c.received.toLowerCase()).toContain("connection: close");
      expect(c.received).toContain('"error_code":"request_timeout"');
      // Closed once the body limit passed, not at Node's request timeout or the request deadline.
      expect(c.closedAfterMs).toBeGreaterThanOrEqual(BODY_TIMEOUT_MS - 50);
      expect(c.closedAfterMs).toBeLessThan(BODY_TIMEOUT_MS + 1_500);
    }
  }, 30_000);

  it("end a connection whose headers never finish within the 2 s header limit", async () => {
    const client = await openRaw("POST /signup HTTP/1.1\r\nHost: localhost\r\nContent-Type: appl");
    const closed = await new Promise<number>((resolve) =>
      client.socket.once("close", () => resolve(performance.now() - client.opened)),
    );
    expect(client.received).toMatch(/^HTTP\/1\.1 408 /);
    expect(closed).toBeLessThan(3_000);
  }, 30_000);
});
