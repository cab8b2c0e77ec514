import { createRequire } from "node:module";
import { connect, createServer, type Server, type Socket } from "node:net";
import { testDatabase } from "@authsvc/adapters/testing";
import postgresEsm from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/**
 * Without named prepared statements (`AUTHSVC_DB_PREPARED_STATEMENTS=false`, behind PgBouncer in
 * transaction mode), postgres.js 3.4.9 asked the server to describe every statement with parameters
 * before running it: two round trips each time. patches/postgres+3.4.9.patch keeps the parameter
 * types the server described for a text, so from its second run a statement is one round trip (Parse,
 * Describe, Bind, Execute, Sync at once), still unnamed. A proxy between the client and PostgreSQL
 * reads what the client sends; both builds of postgres.js (ESM, CommonJS) are checked.
 */
type Postgres = typeof postgresEsm;
const require = createRequire(import.meta.url);
const builds: Record<string, Postgres> = {
  esm: postgresEsm,
  commonjs: require("postgres") as Postgres,
};

interface Sent {
  /** Type bytes of the messages the client sent since the last reset, in order. */
  types: string[];
  /** The statement names of its Parse messages. */
  parseNames: string[];
}

/** Forwards to `target` and decodes the client's messages (after the untyped startup message). */
function countingProxy(target: URL): Promise<{ server: Server; port: number; sent: Sent }> {
  const sent: Sent = { types: [], parseNames: [] };
  const server = createServer((client: Socket) => {
    const upstream = connect(Number(target.port || 5432), target.hostname);
    let buffer = Buffer.alloc(0);
    let started = false;
    client.on("data", (chunk: Buffer) => {
      upstream.write(chunk);
      buffer = Buffer.concat([buffer, chunk]);
      for (;;) {
        if (!started) {
          if (buffer.length < 4) break;
          const length = buffer.readUInt32BE(0);
          if (buffer.length < length) break;
          buffer = buffer.subarray(length);
          started = true;
          continue;
        }
        if (buffer.length < 5) break;
        const length = buffer.readUInt32BE(1);
        if (buffer.length < 1 + length) break;
        const type = String.fromCharCode(buffer[0] as number);
        sent.types.push(type);
        if (type === "P") sent.parseNames.push(buffer.toString("utf8", 5, buffer.indexOf(0, 5)));
        buffer = buffer.subarray(1 + length);
      }
    });
    upstream.on("data", (chunk: Buffer) => client.write(chunk));
    const close = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on("close", close);
    upstream.on("close", close);
    client.on("error", close);
    upstream.on("error", close);
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      resolve({ server, port: typeof address === "object" && address ? address.port : 0, sent });
    }),
  );
}

let proxy: Awaited<ReturnType<typeof countingProxy>>;
beforeAll(async () => {
  proxy = await countingProxy(new URL(testDatabase().url));
});
afterAll(() => new Promise<void>((resolve) => proxy.server.close(() => resolve())));

const reset = () => {
  proxy.sent.types.length = 0;
  proxy.sent.parseNames.length = 0;
};
const count = (type: string) => proxy.sent.types.filter((t) => t === type).length;

describe.each(Object.entries(builds))("postgres.js without named statements (%s build)", (_, postgres) => {
  let sql: postgresEsm.Sql;
  beforeAll(async () => {
    const url = new URL(testDatabase().url);
    url.hostname = "127.0.0.1";
    url.port = String(proxy.port);
    sql = postgres(url.href, { max: 1, prepare: false, onnotice: () => {} });
    await sql`select 1`; // the connection's own start (type lookups) is not counted
  });
  afterAll(() => sql.end());

  it("describes a statement with parameters once, then runs it in one round trip", async () => {
    reset();
    const runs = [];
    for (const n of [1, 2, 3]) runs.push(await sql`select ${n}::int + 1 as next, ${`x${n}`} as label`);
    expect(runs.map(([row]) => row)).toEqual([
      { next: 2, label: "x1" },
      { next: 3, label: "x2" },
      { next: 4, label: "x3" },
    ]);
    // Flush ends the describe-only round trip: only the first run waits for the description.
    expect(count("H")).toBe(1);
    // Every run parses its text again, as an unnamed statement: nothing outlives the transaction.
    expect(count("P")).toBe(3);
    expect(proxy.sent.parseNames).toEqual(["", "", ""]);
    expect(count("S")).toBe(3);
  });

  it("serializes each parameter by the type the server described, on later runs too", async () => {
    const runs = [];
    for (const tag of ["a", "b"]) {
      runs.push(
        await sql`
          select
            ${
              // A plain object, as postgres.js's types do not allow: serialized as JSON only because
              // the server described the parameter as jsonb.
              { tag, list: [1, 2] } as never
            }::jsonb as body,
            ${["x", tag]}::text[] as names,
            ${new Date("2026-01-02T03:04:05Z")}::timestamptz as at,
            ${null}::uuid as none
        `,
      );
    }
    expect(runs.map(([row]) => row)).toEqual(
      ["a", "b"].map((tag) => ({
        body: { tag, list: [1, 2] },
        names: ["x", tag],
        at: new Date("2026-01-02T03:04:05Z"),
        none: null,
      })),
    );
  });

  it("describes again when the same text comes with other inferred types", async () => {
    reset();
    await sql`select ${1}::text as v`;
    await sql`select ${true}::text as v`; // a boolean is sent typed (16): another signature
    await sql`select ${true}::text as v`;
    expect(count("H")).toBe(2);
  });

  it("answers a statement's error and runs the next one on the same connection", async () => {
    await expect(sql`select 1 / ${0}::int as x`).rejects.toThrow(/division by zero/);
    await expect(sql`select 1 / ${0}::int as x`).rejects.toThrow(/division by zero/);
    expect(await sql`select 6 / ${3}::int as x`).toEqual([{ x: 2 }]);
  });
});
