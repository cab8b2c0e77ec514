/**
 * N keep-alive connections that are all open, and all answered once, before the measured load starts:
 * the steady state of "N clients each holding a connection", without the connection storm.
 *
 * Why not autocannon for this: it opens every connection at once and starts sending at once. Node's
 * libuv (1.45 and later) accepts one pending connection per event-loop iteration, and an iteration of
 * a saturated server lasts 100–250 ms, so past the first few hundred the connections wait seconds to
 * minutes to be accepted. Their first requests then dominate p99 — or never complete within the run,
 * and drop out of the count. Here every connection first gets one answer, 64 at a time (the server is
 * not saturated while they are accepted), then all N loop request → answer for `durationS` seconds.
 */
import { connect, type Socket } from "node:net";

export interface KeepAliveResult {
  rps: number;
  p50: number;
  p99: number;
  max: number;
  /** Connections answered at least once during the measured load (of `connections`). */
  answered: number;
  errors: number;
  /** How long opening and priming every connection took (ms). */
  primeMs: number;
}

interface Connection {
  socket: Socket;
  buffer: string;
  waiting?: (ok: boolean) => void;
}

function openConnection(url: URL, onError: () => void): Promise<Connection> {
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname);
    const conn: Connection = { socket, buffer: "" };
    socket.once("connect", () => resolve(conn));
    socket.once("error", reject);
    socket.on("error", onError);
    socket.on("data", (data: Buffer) => {
      conn.buffer += data.toString("latin1");
      for (;;) {
        const end = conn.buffer.indexOf("\r\n\r\n");
        if (end < 0) return;
        const length = Number(/content-length: *(\d+)/i.exec(conn.buffer.slice(0, end))?.[1] ?? 0);
        if (conn.buffer.length < end + 4 + length) return;
        const ok = conn.buffer.startsWith("HTTP/1.1 2");
        conn.buffer = conn.buffer.slice(end + 4 + length);
        const done = conn.waiting;
        conn.waiting = undefined;
        done?.(ok);
      }
    });
  });
}

export async function keepAliveLoad(options: {
  url: string;
  headers: Record<string, string>;
  connections: number;
  durationS: number;
}): Promise<KeepAliveResult> {
  const url = new URL(options.url);
  const head = Object.entries({ host: url.host, ...options.headers })
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join("");
  const request = Buffer.from(`GET ${url.pathname}${url.search} HTTP/1.1\r\n${head}\r\n`);
  let errors = 0;
  const ask = (conn: Connection) =>
    new Promise<{ ok: boolean; ms: number }>((resolve) => {
      const sent = performance.now();
      conn.waiting = (ok) => resolve({ ok, ms: performance.now() - sent });
      conn.socket.write(request);
    });

  const began = performance.now();
  const conns = await Promise.all(
    Array.from({ length: options.connections }, () => openConnection(url, () => errors++)),
  );
  let next = 0;
  await Promise.all(
    Array.from({ length: 64 }, async () => {
      while (next < conns.length) {
        const conn = conns[next++];
        if (conn) await ask(conn);
      }
    }),
  );
  const primeMs = performance.now() - began;

  const latencies: number[] = [];
  const answered = new Set<Connection>();
  let stop = false;
  const start = performance.now();
  const loops = conns.map(async (conn) => {
    while (!stop) {
      const { ok, ms } = await ask(conn);
      if (stop) break;
      latencies.push(ms);
      answered.add(conn);
      if (!ok) errors++;
    }
  });
  await new Promise((resolve) => setTimeout(resolve, options.durationS * 1000));
  stop = true;
  const seconds = (performance.now() - start) / 1000;
  for (const conn of conns) conn.socket.destroy();
  for (const conn of conns) conn.waiting?.(false);
  await Promise.all(loops);
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
  return {
    rps: latencies.length / seconds,
    p50: at(0.5),
    p99: at(0.99),
    max: at(1),
    answered: answered.size,
    errors,
    primeMs,
  };
}
