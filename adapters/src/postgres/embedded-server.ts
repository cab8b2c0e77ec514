import { existsSync } from "node:fs";
import { mkdir, readdir } from "node:fs/promises";
import { createServer, type Socket } from "node:net";
import { join } from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import {
  AUTHENTICATION_TIMEOUT_MS,
  MAX_PASSWORD_MESSAGE_LENGTH,
  md5Answers,
  md5Challenge,
  PASSWORD_MESSAGE,
  startupUser,
} from "./embedded-auth.js";
import { lockDataFolder, ownerOnlyUmask, privateFolder, restrictModes } from "./embedded-folder.js";
import { copyTemplate } from "./embedded-template.js";
import {
  ABANDON,
  ADMIN_SHUTDOWN,
  AUTHENTICATION_FAILED,
  CANCEL_REQUEST,
  CANNOT_CONNECT_NOW,
  FLUSH,
  GSSENC_REQUEST,
  QUERY,
  SSL_REQUEST,
  STARTUP,
  SYNC,
  TERMINATE,
} from "./embedded-wire.js";

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
  /** postgres://postgres[:password]@host:port/postgres */
  url: string;
  /** `url` without the password: what may be logged. */
  displayUrl: string;
  /**
   * Where the database came from: "existing" (the data folder held one), "template" (copied from a
   * prepared template) or "initdb" (created by PGlite's initdb).
   */
  created: "existing" | "template" | "initdb";
  /** Closes all client connections (rolling back their transactions), then closes PGlite, flushing to disk. */
  stop(): Promise<void>;
  /**
   * Emulates a database restart, for fault tests, the way PostgreSQL does it: every client connection
   * gets a FATAL 57P01 (admin_shutdown) and is closed (its transaction rolled back), and new ones are
   * answered FATAL 57P03 (cannot_connect_now) after their startup packet until `resume()`; `dropped`
   * counts the connections it closed.
   */
  interrupt(): { dropped: number; resume(): void };
  /** Client connections open now. */
  connections(): number;
}

/**
 * PGlite whose own query API (query, exec) is never used: clients speak the wire protocol through
 * execProtocolRawStream and parse results themselves. PGlite's start ends with a catalog query that
 * builds parsers for array types, for its own query API only; skipping it saves a cold catalog scan
 * (a tenth to a quarter of a second of CPU) on every start. PGlite is imported here, at the embedded
 * database's start, so that a server on PostgreSQL never loads it.
 */
async function openProtocolOnlyPGlite(pgdata: string): Promise<PGlite> {
  const [{ PGlite }, { pg_trgm }] = await Promise.all([
    import("@electric-sql/pglite"),
    import("@electric-sql/pglite/contrib/pg_trgm"),
  ]);
  class ProtocolOnlyPGlite extends PGlite {
    override async _initArrayTypes(): Promise<void> {}
  }
  // pg_trgm: the trigram indexes of the admin list's filter (migration 0021).
  const db = new ProtocolOnlyPGlite({ dataDir: pgdata, extensions: { pg_trgm } });
  await db.waitReady;
  return db;
}

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
  /** Set between the startup packet and the password: what PGlite gets once the password is right. */
  pending?: { startup: Buffer; user: string; salt: Buffer } | undefined;
  /** Until the password is given: disconnects a client that takes too long to give it. */
  authenticating?: ReturnType<typeof setTimeout> | undefined;
}

export async function startEmbeddedPostgres(options: {
  dataDir: string;
  host?: string;
  port?: number;
  /**
   * A pgdata folder to copy when `<dataDir>/pgdata` holds no database yet (see embedded-template.ts),
   * instead of letting PGlite run initdb; `created` then reports "template".
   */
  template?: string;
  /**
   * The password every client must give (MD5 exchange, see embedded-auth.ts); without one, any
   * client that reaches the port is let in.
   */
  password?: string;
  /** With a password: how long a client may take to give it before it is disconnected. */
  authenticationTimeoutMs?: number;
}): Promise<EmbeddedPostgres> {
  const host = options.host ?? "127.0.0.1";
  const pgdata = join(options.dataDir, "pgdata");
  // Private before anything is written into it, and locked before the files are looked at.
  await privateFolder(options.dataDir);
  ownerOnlyUmask();
  const unlock = lockDataFolder(options.dataDir);
  let db: PGlite;
  let created: EmbeddedPostgres["created"];
  try {
    const exists = existsSync(join(pgdata, "PG_VERSION"));
    // Only into an absent or empty folder: whatever else is there is left to PGlite, as before.
    const vacant = !existsSync(pgdata) || (await readdir(pgdata)).length === 0;
    const template = !exists && vacant ? options.template : undefined;
    if (template) await copyTemplate(template, pgdata);
    else await mkdir(pgdata, { recursive: true });
    db = await openProtocolOnlyPGlite(pgdata);
    created = exists ? "existing" : template ? "template" : "initdb";
    // initdb's and the template's files, and those of a folder made before this was done. Only the
    // database's own folder is walked: the data folder may be one the operator keeps other files in.
    await restrictModes(pgdata);
  } catch (error) {
    unlock();
    throw error;
  }

  const clients = new Set<Client>();
  const ready: Client[] = []; // clients with pending units, round-robin
  let owner: Client | null = null;
  let running = false;
  let idle = Promise.resolve();
  let refusing = false; // interrupted: new connections are refused after their startup packet

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
        if (refusing) {
          // As PostgreSQL while it starts up: the startup packet is read, then refused.
          client.closed = true;
          client.socket.end(CANNOT_CONNECT_NOW);
          return;
        }
        const startup = buf.subarray(0, length);
        if (options.password === undefined) {
          enqueue(client, { bytes: startup, last: STARTUP });
          continue;
        }
        // PGlite sees the startup packet only once the password is right; it then answers it (with
        // AuthenticationOk, which is what the client waits for after its password).
        const { salt, message } = md5Challenge();
        client.pending = { startup, user: startupUser(startup), salt };
        client.socket.write(message);
        continue;
      }
      if (buf.length < 5) return;
      const length = buf.readInt32BE(1);
      if (length < 4) {
        client.socket.destroy();
        return;
      }
      const type = buf[0] as number;
      const pending = client.pending;
      if (pending !== undefined && options.password !== undefined) {
        // Judged on its header: a client without the password gets no more memory than a password's.
        const refused = type !== PASSWORD_MESSAGE || length > MAX_PASSWORD_MESSAGE_LENGTH;
        if (!refused && buf.length < 1 + length) return;
        if (
          refused ||
          !md5Answers(buf.subarray(0, 1 + length), pending.user, options.password, pending.salt)
        ) {
          client.closed = true;
          client.socket.end(AUTHENTICATION_FAILED);
          return;
        }
        clearTimeout(client.authenticating);
        client.pending = undefined;
        client.buffer = buf.subarray(1 + length);
        enqueue(client, { bytes: pending.startup, last: STARTUP });
        continue;
      }
      if (buf.length < 1 + length) return;
      client.parts.push(buf.subarray(0, 1 + length));
      client.buffer = buf.subarray(1 + length);
      if (type === SYNC || type === QUERY || type === FLUSH || type === TERMINATE) {
        if (type === TERMINATE) client.closed = true; // release at once, without waiting for "close"
        enqueue(client, { bytes: Buffer.concat(client.parts), last: type });
        client.parts = [];
      }
    }
  }

  const server = createServer((socket) => {
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
    if (options.password !== undefined) {
      client.authenticating = setTimeout(() => {
        client.closed = true;
        socket.destroy();
      }, options.authenticationTimeoutMs ?? AUTHENTICATION_TIMEOUT_MS);
    }
    socket.on("data", (data) => {
      if (client.closed) return;
      client.buffer = client.buffer.length === 0 ? data : Buffer.concat([client.buffer, data]);
      receive(client);
    });
    socket.on("error", () => {}); // a reset peer is routine; "close" follows and does the cleanup
    socket.on("close", () => {
      clearTimeout(client.authenticating);
      clients.delete(client);
      client.closed = true;
      kick();
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => resolve());
  }).catch(async (error: unknown) => {
    await db.close().finally(unlock);
    throw error;
  });
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("embedded server has no TCP address");
  const hostInUrl = host.includes(":") ? `[${host}]` : host;

  let stopping: Promise<void> | null = null;
  const displayUrl = `postgres://postgres@${hostInUrl}:${address.port}/postgres`;
  const credentials = options.password === undefined ? "" : `:${encodeURIComponent(options.password)}`;
  return {
    url: `postgres://postgres${credentials}@${hostInUrl}:${address.port}/postgres`,
    displayUrl,
    created,
    interrupt() {
      refusing = true;
      const dropped = clients.size;
      for (const client of clients) {
        client.closed = true;
        // Half-closed after the FATAL; the client closes its side on reading it (or on the end).
        if (client.started) client.socket.end(ADMIN_SHUTDOWN);
        else client.socket.destroy();
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
        try {
          await db.close();
          // What PGlite wrote while it ran, should the umask not have applied (a worker thread).
          await restrictModes(pgdata);
        } finally {
          unlock();
        }
      })();
      return stopping;
    },
  };
}
