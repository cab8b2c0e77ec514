import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectPostgres } from "./connect.js";
import { type EmbeddedPostgres, startEmbeddedPostgres } from "./embedded-server.js";

/** The embedded server with a password: only a client that gives it is let in. */
describe("startEmbeddedPostgres with a password", () => {
  const PASSWORD = "Zk3/+w@:x%y-random-per-start";
  let dataDir: string;
  let server: EmbeddedPostgres;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), "authsvc-embedded-auth-"));
    server = await startEmbeddedPostgres({ dataDir, password: PASSWORD });
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
});
