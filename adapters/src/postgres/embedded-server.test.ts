import { mkdtemp, rm } from "node:fs/promises";
import { connect, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectPostgres, type Sql } from "./connect.js";
import { type EmbeddedPostgres, startEmbeddedPostgres } from "./embedded-server.js";

/**
 * The embedded server against its own PGlite (independent of the run's test database): one backend
 * shared by every connection, which must still behave like a server with one backend per connection.
 */
describe("startEmbeddedPostgres", () => {
  let dataDir: string;
  let server: EmbeddedPostgres;
  const pools: Sql[] = [];

  function pool(max = 4): Sql {
    const sql = connectPostgres({ url: server.url, maxPoolSize: max, embedded: true });
    pools.push(sql);
    return sql;
  }

  async function endPools(): Promise<void> {
    await Promise.all(pools.splice(0).map((sql) => sql.end()));
  }

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), "authsvc-embedded-"));
    server = await startEmbeddedPostgres({ dataDir });
  });

  afterAll(async () => {
    await endPools();
    await server?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it("serves on loopback with a random port", () => {
    expect(server.url).toMatch(/^postgres:\/\/postgres@127\.0\.0\.1:\d+\/postgres$/);
  });

  it("keeps concurrent read-then-write transactions of two pools apart", async () => {
    const [a, b] = [pool(), pool()];
    await a`create table counter (n int not null)`;
    await a`insert into counter values (0)`;
    // 50 transactions increment; 10 more increment and then fail, so they must leave no trace.
    const outcomes = await Promise.allSettled(
      Array.from({ length: 60 }, (_, i) =>
        (i % 2 === 0 ? a : b).begin(async (tx) => {
          const [row] = await tx<{ n: number }[]>`select n from counter`;
          await tx`update counter set n = ${(row as { n: number }).n + 1}`;
          if (i % 6 === 5) await tx`select 1 / 0`;
        }),
      ),
    );
    expect(outcomes.filter((o) => o.status === "rejected")).toHaveLength(10);
    const [row] = await b`select n from counter`;
    expect(row?.n).toBe(50);
  });

  it("answers concurrent parameterised queries of two pools with their own parameters", async () => {
    // postgres.js sends these as Parse+Describe+Flush, then Bind+Execute+Sync on the unnamed statement:
    // a message-level multiplexer interleaves them and mixes up statements.
    const [a, b] = [pool(), pool()];
    const values = Array.from({ length: 200 }, (_, i) => i);
    const results = await Promise.all(
      values.map(async (i) => {
        const sql = i % 2 === 0 ? a : b;
        const rows =
          i % 3 === 0
            ? await sql<{ v: number }[]>`select ${i}::int as v`
            : await sql<{ v: number }[]>`select ${String(i)}::text::int + ${0}::int as v`;
        return rows[0]?.v;
      }),
    );
    expect(results).toEqual(values);
  });

  it("reports SQL errors to the client that caused them and carries on", async () => {
    const [a, b] = [pool(), pool()];
    const outcomes = await Promise.allSettled(
      Array.from({ length: 60 }, (_, i) => {
        if (i % 3 === 0) return a`select ${i}::int / 0 as v`; // fails at Execute
        if (i % 3 === 1) return a`select ${i}::int as v frm nowhere`; // fails at Parse, before Flush
        return b<{ v: number }[]>`select ${i}::int as v`;
      }),
    );
    outcomes.forEach((outcome, i) => {
      if (i % 3 !== 2) expect(outcome.status).toBe("rejected");
      else expect(outcome).toEqual({ status: "fulfilled", value: [{ v: i }] });
    });
  });

  it("rolls back an explicit transaction whose client disconnects, and serves the others", async () => {
    const sql = pool();
    await sql`create table gone (id int)`;
    const raw = await rawClient(server.url);
    await raw.send(simpleQuery("begin; insert into gone values (1)"));
    expect(await raw.readyStatus()).toBe("T");
    // The backend belongs to the raw client now; this waits until the disconnect releases it.
    const pending = sql`select count(*)::int as n from gone`.execute();
    raw.socket.destroy();
    expect((await pending)[0]?.n).toBe(0);
    await sql.begin((tx) => tx`insert into gone values (2)`);
    expect((await sql`select id from gone`).map((r) => r.id)).toEqual([2]);
  });

  it("does not commit a half-sent extended-protocol insert when its client disconnects", async () => {
    const sql = pool();
    await sql`create table half (id int)`;
    const raw = await rawClient(server.url);
    // Parse/Bind/Execute then Flush, no Sync: the insert ran in an implicit transaction that a Sync would
    // commit. A server aborts it when the client goes away.
    await raw.send(
      Buffer.concat([
        message("P", cstring(""), cstring("insert into half values (7)"), int16(0)),
        message("B", cstring(""), cstring(""), int16(0), int16(0), int16(0)),
        message("E", cstring(""), int32(0)),
        message("H"),
      ]),
    );
    await raw.waitFor("C"); // CommandComplete of the insert
    const pending = sql`select count(*)::int as n from half`.execute();
    raw.socket.destroy();
    expect((await pending)[0]?.n).toBe(0);
  });

  it("answers an SSLRequest with N and then serves the connection in clear text", async () => {
    const raw = await rawClient(server.url, { sslRequest: true });
    await raw.send(simpleQuery("select 1"));
    expect(await raw.readyStatus()).toBe("I");
    raw.socket.destroy();
  });

  it("interrupted, ends sessions and refuses new ones with PostgreSQL's FATAL errors until resumed", async () => {
    const raw = await rawClient(server.url);
    const closed = new Promise<string>((resolve) => raw.socket.once("close", () => resolve("closed")));
    const outage = server.interrupt();
    expect(outage.dropped).toBeGreaterThanOrEqual(1);
    // A client sees the error before the close, as with pg_terminate_backend or a fast shutdown.
    const error = await Promise.race([raw.waitFor("E").then(String), closed]);
    expect(error).toContain("SFATAL\0");
    expect(error).toContain("C57P01\0");
    await closed;
    const sql = pool(1);
    const refused = await sql`select 1`.catch((e: { code?: string; severity?: string }) => e);
    expect(refused).toMatchObject({ code: "57P03", severity: "FATAL" });
    outage.resume();
    // A query sent before the refused connection finished closing fails with that refusal too.
    const deadline = Date.now() + 2_000;
    let answer: unknown;
    while (answer === undefined && Date.now() < deadline) {
      answer = await sql`select 1 as n`.catch(() => undefined);
    }
    expect(answer).toEqual([{ n: 1 }]);
  });

  it("keeps the data across a stop and a restart on the same directory", async () => {
    const sql = pool();
    await sql`create table kept (note text)`;
    await sql`insert into kept values ('still here')`;
    await endPools();
    await server.stop();
    server = await startEmbeddedPostgres({ dataDir });
    expect(await pool()`select note from kept`).toEqual([{ note: "still here" }]);
  });
});

// --- a minimal protocol client, to disconnect at moments postgres.js never would ---

const int16 = (n: number) => Buffer.from([n >> 8, n & 0xff]);
const int32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeInt32BE(n);
  return b;
};
const cstring = (s: string) => Buffer.from(`${s}\0`);

function message(type: string, ...parts: Buffer[]): Buffer {
  const body = Buffer.concat(parts);
  return Buffer.concat([Buffer.from(type), int32(4 + body.length), body]);
}

const simpleQuery = (text: string) => message("Q", cstring(text));

async function rawClient(url: string, options: { sslRequest?: boolean } = {}) {
  const { hostname, port } = new URL(url);
  const socket: Socket = connect(Number(port), hostname);
  await new Promise((resolve, reject) => socket.once("connect", resolve).once("error", reject));
  let received = Buffer.alloc(0);
  let notify = () => {};
  socket.on("data", (data) => {
    received = Buffer.concat([received, data]);
    notify();
  });
  /** Resolves with the first unread backend message of `type` once it is complete; consumes up to it. */
  async function waitFor(type: string): Promise<Buffer> {
    for (;;) {
      let offset = 0;
      while (received.length >= offset + 5) {
        const end = offset + 1 + received.readInt32BE(offset + 1);
        if (received.length < end) break;
        if (received[offset] === type.charCodeAt(0)) {
          const body = received.subarray(offset + 5, end);
          received = received.subarray(end);
          return body;
        }
        offset = end;
      }
      await new Promise<void>((resolve) => {
        notify = resolve;
      });
    }
  }
  if (options.sslRequest) {
    socket.write(Buffer.concat([int32(8), int32(80877103)]));
    await new Promise<void>((resolve) => {
      notify = resolve;
    });
    expect(received.toString()).toBe("N");
    received = Buffer.alloc(0);
  }
  const params = Buffer.concat([
    cstring("user"),
    cstring("postgres"),
    cstring("database"),
    cstring("postgres"),
  ]);
  const startup = Buffer.concat([int32(3 << 16), params, Buffer.from([0])]);
  socket.write(Buffer.concat([int32(4 + startup.length), startup]));
  await waitFor("Z");
  return {
    socket,
    waitFor,
    send: async (bytes: Buffer) => {
      socket.write(bytes);
    },
    /** Transaction status of the next ReadyForQuery: I idle, T in a transaction, E failed transaction. */
    readyStatus: async () => String.fromCharCode((await waitFor("Z"))[0] as number),
  };
}
