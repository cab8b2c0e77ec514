import { mkdtemp, rm } from "node:fs/promises";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectPostgres } from "./connect.js";
import { type EmbeddedPostgres, startEmbeddedPostgres } from "./embedded-server.js";

/** The embedded server with a password: only a client that gives it is let in. */
describe("startEmbeddedPostgres with a password", () => {
  const PASSWORD = "Zk3/+w@:x%y-random-per-start";
  const AUTHENTICATION_TIMEOUT_MS = 1_000;
  let dataDir: string;
  let server: EmbeddedPostgres;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), "authsvc-embedded-auth-"));
    server = await startEmbeddedPostgres({
      dataDir,
      password: PASSWORD,
      authenticationTimeoutMs: AUTHENTICATION_TIMEOUT_MS,
    });
  });

  afterAll(async () => {
    await server?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  /** What `select 1` does on a fresh single connection to `url`: the number, or the error's code. */
  async function selectOne(url: string): Promise<unknown> {
    const sql = connectPostgres({ url, maxPoolSize: 1, embedded: true, connectTimeoutMs: 5_000 });
    try {
      const [row] = await sql`select 1 as one`;
      return row?.one;
    } catch (error) {
      return (error as { code?: string }).code;
    } finally {
      await sql.end({ timeout: 1 });
    }
  }

  it("puts the password in its URL, and leaves it out of the one to log", () => {
    expect(server.url).toContain(`:${encodeURIComponent(PASSWORD)}@127.0.0.1:`);
    expect(server.displayUrl).toMatch(/^postgres:\/\/postgres@127\.0\.0\.1:\d+\/postgres$/);
  });

  it("lets a client with the password in", async () => {
    expect(await selectOne(server.url)).toBe(1);
  });

  it("refuses a client without the password, or with a wrong one, and stays up for others", async () => {
    expect(await selectOne(server.displayUrl)).toBe("28P01");
    expect(await selectOne(server.url.replace(encodeURIComponent(PASSWORD), "wrong"))).toBe("28P01");
    // The right password after a wrong one: the refusals left the shared backend as it was.
    expect(await selectOne(server.url)).toBe(1);
  });

  const int32 = (n: number) => {
    const bytes = Buffer.alloc(4);
    bytes.writeInt32BE(n);
    return bytes;
  };
  const params = Buffer.from("user\0postgres\0database\0postgres\0\0");
  const STARTUP = Buffer.concat([int32(8 + params.length), int32(196_608), params]);

  /**
   * Opens a raw connection, writes `bytes`, and resolves with what the server sent and whether it
   * closed the connection within `withinMs` (the connection is dropped then, closed or not).
   */
  function rawSession(bytes: Buffer, withinMs: number): Promise<{ received: string; closed: boolean }> {
    const port = Number(new URL(server.url).port);
    return new Promise((resolve) => {
      const socket = connect({ host: "127.0.0.1", port });
      let received = "";
      socket.on("data", (chunk: Buffer) => {
        received += chunk.toString("latin1");
      });
      socket.on("error", () => {});
      const giveUp = setTimeout(() => {
        socket.destroy();
        resolve({ received, closed: false });
      }, withinMs);
      socket.on("close", () => {
        clearTimeout(giveUp);
        resolve({ received, closed: true });
      });
      socket.on("connect", () => socket.write(bytes));
    });
  }

  it("refuses a password message longer than a password on its header, without waiting for its bytes", async () => {
    // Declares nearly 2 GiB and sends a few bytes of it: waiting for the rest would hold it all.
    const huge = Buffer.concat([Buffer.from("p"), int32(0x7fff_fff0), Buffer.alloc(64, 0x61)]);
    const session = await rawSession(Buffer.concat([STARTUP, huge]), 2_000);
    expect(session.closed).toBe(true);
    expect(session.received).toContain("C28P01");
    // Another message than a password while the password is due is refused the same way.
    const query = Buffer.concat([Buffer.from("Q"), int32(0x7fff_fff0), Buffer.from("select")]);
    const other = await rawSession(Buffer.concat([STARTUP, query]), 2_000);
    expect(other.closed).toBe(true);
    expect(other.received).toContain("C28P01");
  });

  it("disconnects a client that does not give the password in time, as authentication_timeout", async () => {
    const silent = await rawSession(STARTUP, AUTHENTICATION_TIMEOUT_MS + 2_000);
    expect(silent.closed).toBe(true);
    const halfStartup = await rawSession(STARTUP.subarray(0, 12), AUTHENTICATION_TIMEOUT_MS + 2_000);
    expect(halfStartup.closed).toBe(true);
    // The clients that gave it are not affected once in, however long they stay.
    expect(await selectOne(server.url)).toBe(1);
  });
});
