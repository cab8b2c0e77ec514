import { mkdir } from "node:fs/promises";
import { createServer, type Socket } from "node:net";
import { join } from "node:path";

/**
 * PGlite (Postgres compiled to WASM) served over TCP on loopback, so the embedded mode runs the very
 * same postgres.js code as a real server.
 *
 * Why not @electric-sql/pglite-socket's PGLiteSocketServer: PGlite is ONE backend, and that server
 * queues individual protocol messages. postgres.js sends a parameterised query as Parse+Describe+Flush,
 * waits, then Bind+Execute+Sync; another client's Parse in between replaces the unnamed statement, and
 * the first client gets "bind message supplies 1 parameters, but prepared statement "" requires 0" or
 * someone else's rows. So this multiplexer schedules whole units instead:
 *   - a unit is a client's messages up to and including Sync, Query, Flush or Terminate (after those the
 *     client waits for the backend), or its startup packet; a unit runs atomically;
 *   - after a unit, if the backend is inside a transaction block, or the unit ended with Flush (an
 *     extended-protocol sequence is half done), that client owns the backend until a later unit of
 *     its own ends outside both; meanwhile other clients' units wait;
 *   - a client that disconnects while owning is rolled back and the backend released.
 * Clients must not use named prepared statements (they would collide in the shared backend):
 * connectPostgres({ embedded: true }) sets prepare: false. Session state (SET, temp tables, LISTEN) is
 * shared by all clients too; authsvc uses none of it. COPY FROM STDIN is not supported.
 */
export interface EmbeddedPostgres {
  /** postgres://postgres@host:port/postgres */
  url: string;
  /** Closes all client connections (rolling back their transactions), then closes PGlite, flushing to disk. */
  stop(): Promise<void>;
  /**
   * Emulates a database restart, for fault tests: drops every client connection (rolling back their
   * transactions) and refuses new ones until `resume()`; `dropped` counts the connections it closed.
   */
  interrupt(): { dropped: number; resume(): void };
  /** Client connections open now. */
  connections(): number;
}

const SSL_REQUEST = 80877103;
const GSSENC_REQUEST = 80877104;
const CANCEL_REQUEST = 80877102;
const SYNC = 0x53; // 'S'
const QUERY = 0x51; // 'Q'
const FLUSH = 0x48; // 'H'
const TERMINATE = 0x58; // 'X'
const STARTUP = 0; // marker for the startup packet, which has no type byte

interface Unit {
  bytes: Buffer;
  last: number;
}

interface Client {
  socket: Socket;
  buffer: Buffer;
  started: boolean;
  parts: Buffer[];
  units: Unit[];
  queued: boolean;
  closed: boolean;
}

function query(text: string): Buffer {
  const body = Buffer.from(`${text}\0`);
  const header = Buffer.alloc(5);
  header[0] = QUERY;
  header.writeInt32BE(4 + body.length, 1);
  return Buffer.concat([header, body]);
}

// Sent on behalf of a client that vanished while owning the backend. The first ROLLBACK aborts an
// explicit block, or an implicit extended-protocol transaction (which a bare Sync would COMMIT); if the
// backend is skipping messages after an error, Sync ends that and the second ROLLBACK ends the block.
const ABANDON = Buffer.concat([query("rollback"), Buffer.from([SYNC, 0, 0, 0, 4]), query("rollback")]);

export async function startEmbeddedPostgres(options: {
  dataDir: string;
  host?: string;
  port?: number;
}): Promise<EmbeddedPostgres> {
  const host = options.host ?? "127.0.0.1";
  const pgdata = join(options.dataDir, "pgdata");
  await mkdir(pgdata, { recursive: true });
  // Loaded here: a server given DATABASE_URL never needs PGlite.
  const { PGlite } = await import("@electric-sql/pglite");
  const db = await PGlite.create({ dataDir: pgdata });

  const clients = new Set<Client>();
  const ready: Client[] = []; // clients with pending units, round-robin
  let owner: Client | null = null;
  let running = false;
  let idle = Promise.resolve();

  function enqueue(client: Client, unit: Unit): void {
    client.units.push(unit);
    if (!client.queued) {
      client.queued = true;
      ready.push(client);
    }
    kick();
  }

  function kick(): void {
    if (running) return;
    running = true;
    idle = pump();
  }

  async function pump(): Promise<void> {
    try {
      for (;;) {
        // A vanished client's already-received units still run first, in order, as on a real server.
        if (owner?.closed && owner.units.length === 0) {
          owner = null;
          await db
            .runExclusive(() => db.execProtocolRawStream(ABANDON, { onRawData: () => {} }))
            .catch(() => {});
          continue;
        }
        const client = owner ?? ready.shift();
        if (!client) return;
        if (client !== owner) client.queued = false;
        const unit = client.units.shift();
        if (!unit) {
          if (client === owner) return; // the owner is thinking; everyone else waits
          continue;
        }
        await execute(client, unit);
        owner = db.isInTransaction() || unit.last === FLUSH ? client : null;
        if (client.units.length > 0 && !client.queued) {
          client.queued = true;
          ready.push(client);
        }
      }
    } finally {
      // Cleared in the same tick as the final "nothing to do" check, so no kick() is ever lost.
      running = false;
    }
  }

  async function execute(client: Client, unit: Unit): Promise<void> {
    // PGlite ignores a lone Terminate; we strip it and close the socket ourselves.
    const bytes = unit.last === TERMINATE ? unit.bytes.subarray(0, -5) : unit.bytes;
    try {
      if (bytes.length > 0) {
        await db.runExclusive(() =>
          db.execProtocolRawStream(bytes, {
            // The chunk is a view into PGlite's reused receive buffer: Buffer.from copies it.
            onRawData: (chunk) => {
              if (!client.closed) client.socket.write(Buffer.from(chunk));
            },
          }),
        );
      }
    } catch {
      client.socket.destroy(); // PGlite itself failed (not an SQL error, those are sent back as bytes)
    }
    if (unit.last === TERMINATE) client.socket.end();
  }

  /** Splits the socket's bytes into messages and messages into units. */
  function receive(client: Client): void {
    for (;;) {
      const buf = client.buffer;
      if (!client.started) {
        if (buf.length < 8) return;
        const length = buf.readInt32BE(0);
        const code = buf.readInt32BE(4);
        if (code === SSL_REQUEST || code === GSSENC_REQUEST) {
          client.socket.write("N"); // no encryption on loopback; the client carries on in clear text
          client.buffer = buf.subarray(8);
          continue;
        }
        // PGlite cannot interrupt a running statement; a cancel connection just goes away.
        if (code === CANCEL_REQUEST || length < 8 || length > 10_000) {
          client.socket.destroy();
          return;
        }
        if (buf.length < length) return;
        client.started = true;
        client.buffer = buf.subarray(length);
        enqueue(client, { bytes: buf.subarray(0, length), last: STARTUP });
        continue;
      }
      if (buf.length < 5) return;
      const length = buf.readInt32BE(1);
      if (length < 4) {
        client.socket.destroy();
        return;
      }
      if (buf.length < 1 + length) return;
      const type = buf[0] as number;
      client.parts.push(buf.subarray(0, 1 + length));
      client.buffer = buf.subarray(1 + length);
      if (type === SYNC || type === QUERY || type === FLUSH || type === TERMINATE) {
        if (type === TERMINATE) client.closed = true; // release at once, without waiting for "close"
        enqueue(client, { bytes: Buffer.concat(client.parts), last: type });
        client.parts = [];
      }
    }
  }

  let refusing = false;
  const server = createServer((socket) => {
    if (refusing) {
      socket.destroy();
      return;
    }
    const client: Client = {
      socket,
      buffer: Buffer.alloc(0),
      started: false,
      parts: [],
      units: [],
      queued: false,
      closed: false,
    };
    clients.add(client);
    socket.setNoDelay(true);
    socket.on("data", (data) => {
      if (client.closed) return;
      client.buffer = client.buffer.length === 0 ? data : Buffer.concat([client.buffer, data]);
      receive(client);
    });
    socket.on("error", () => {}); // a reset peer is routine; "close" follows and does the cleanup
    socket.on("close", () => {
      clients.delete(client);
      client.closed = true;
      kick();
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("embedded server has no TCP address");
  const hostInUrl = host.includes(":") ? `[${host}]` : host;

  let stopping: Promise<void> | null = null;
  return {
    url: `postgres://postgres@${hostInUrl}:${address.port}/postgres`,
    interrupt() {
      refusing = true;
      const dropped = clients.size;
      for (const client of clients) {
        client.closed = true;
        client.socket.destroy();
      }
      kick();
      const resume = () => {
        refusing = false;
      };
      return { dropped, resume };
    },
    connections: () => clients.size,
    stop() {
      stopping ??= (async () => {
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        for (const client of clients) {
          client.closed = true;
          client.socket.destroy();
        }
        kick();
        await closed;
        while (running) await idle;
        await db.close();
      })();
      return stopping;
    },
  };
}
