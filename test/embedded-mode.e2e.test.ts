import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { connectPostgres } from "@authsvc/adapters";
import { afterAll, describe, expect, it } from "vitest";
import { embeddedDatabaseUrl } from "./support/embedded-database.js";
import { type ServerProcess, startServer } from "./support/server-process.js";

/**
 * The development mode (no database URL) is reachable from this machine only: the API listens on
 * loopback unless AUTHSVC_API_HOST says otherwise, and the embedded database, on a loopback port any
 * local user can reach, lets in only a client with the password made at this start.
 */
const cwd = mkdtempSync(join(tmpdir(), "authsvc-embedded-mode-"));
let server: ServerProcess | undefined;
afterAll(async () => {
  await server?.stop("SIGKILL");
  rmSync(cwd, { recursive: true, force: true });
});

/** `select 1` over a fresh connection to `url`: 1, or the error's SQLSTATE. */
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

describe("the embedded mode", () => {
  it("listens on 127.0.0.1 by default, and its database refuses clients without this start's password", async () => {
    server = await startServer({ PORT: "0", AUTHSVC_LOG_LEVEL: "debug" }, { cwd });
    const lines = server.lines();
    const listening = lines.find((l) => typeof l.url === "string");
    expect(listening?.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect((await fetch(`${String(listening?.url)}/health`)).status).toBe(200);

    const logged = String(lines.find((l) => l.msg === "embedded database started")?.database);
    expect(logged).toMatch(/^postgres:\/\/postgres@127\.0\.0\.1:\d+\/postgres$/);
    const url = embeddedDatabaseUrl(lines);
    const password = new URL(url).password;
    expect(password.length).toBeGreaterThanOrEqual(32);
    // Only the debug line shows it.
    const showing = lines.filter((l) => JSON.stringify(l).includes(password));
    expect(showing.map((l) => l.level)).toEqual(["debug"]);

    expect(await selectOne(logged)).toBe("28P01");
    expect(await selectOne(url.replace(password, `${password.slice(1)}x`))).toBe("28P01");
    expect(await selectOne(url)).toBe(1);
  }, 60_000);
});
