import { chmodSync, lstatSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { connectPostgres } from "@authsvc/adapters";
import { afterAll, describe, expect, it } from "vitest";
import { embeddedDatabaseUrl } from "./support/embedded-database.js";
import { runServer, type ServerProcess, startServer } from "./support/server-process.js";

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

/** Every folder and file under `root` whose mode is not `dirMode`/`fileMode`, as "path mode". */
function looseModes(root: string, dirMode = 0o700, fileMode = 0o600): string[] {
  const loose: string[] = [];
  const walk = (path: string) => {
    const stat = lstatSync(path);
    const mode = stat.mode & 0o777;
    if (mode !== (stat.isDirectory() ? dirMode : fileMode)) loose.push(`${path} ${mode.toString(8)}`);
    if (stat.isDirectory()) for (const name of readdirSync(path)) walk(join(path, name));
  };
  walk(root);
  return loose;
}

describe("the embedded data folder", () => {
  const folderCwd = mkdtempSync(join(tmpdir(), "authsvc-embedded-folder-"));
  const dataDir = join(folderCwd, ".authsvc");
  const env = { PORT: "0", AUTHSVC_MAILER_AUTOCONFIRM: "true" };
  let first: ServerProcess | undefined;
  afterAll(async () => {
    await first?.stop("SIGKILL");
    rmSync(folderCwd, { recursive: true, force: true });
  });

  it("is readable and writable by its owner only: the folder 0700, every file 0600, also those made while it runs", async () => {
    first = await startServer(env, { cwd: folderCwd });
    // Writes that make new files in the database (a user, so rows, WAL, and the index pages).
    const listening = String(first.lines().find((l) => typeof l.url === "string")?.url);
    const res = await fetch(`${listening}/signup`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        apikey: String(first.lines().find((l) => l.anon_key)?.anon_key),
      },
      body: JSON.stringify({ email: "modes@example.com", password: "secret-pw-1" }),
    });
    expect(res.status).toBe(200);
    expect(looseModes(dataDir)).toEqual([]);
    expect(readdirSync(join(dataDir, "pgdata")).length).toBeGreaterThan(10);
  }, 60_000);

  it("a second server on the same folder fails at once, naming the folder and the process that has it", async () => {
    const second = await runServer(env, { cwd: folderCwd });
    expect(second.code).not.toBe(0);
    expect(second.stderr).toContain(dataDir);
    expect(second.stderr).toContain(`process ${first?.pid}`);
    // One-shot commands that open the database respect it too.
    const migrate = await runServer(env, { cwd: folderCwd, args: ["migrate"] });
    expect(migrate.code).not.toBe(0);
    expect(migrate.stderr).toContain(`process ${first?.pid}`);
    // The first one is untouched.
    const listening = String(first?.lines().find((l) => typeof l.url === "string")?.url);
    expect((await fetch(`${listening}/health/ready`)).status).toBe(200);
  }, 60_000);

  it("a folder left by a killed server, with loose modes, starts again and is made private", async () => {
    await first?.stop("SIGKILL");
    first = undefined;
    // As a folder made before this server restricted it, or by a copy.
    chmodSync(dataDir, 0o777);
    for (const name of readdirSync(join(dataDir, "pgdata"))) {
      const path = join(dataDir, "pgdata", name);
      chmodSync(path, lstatSync(path).isDirectory() ? 0o777 : 0o666);
    }
    first = await startServer(env, { cwd: folderCwd });
    expect(looseModes(dataDir)).toEqual([]);
    const stopped = await first.stop("SIGTERM");
    first = undefined;
    expect(stopped.code).toBe(0);
    // Stopped cleanly: nothing it wrote on the way out is loose, and the folder is free for the next one.
    expect(looseModes(dataDir)).toEqual([]);
    const migrate = await runServer(env, { cwd: folderCwd, args: ["migrate"] });
    expect(migrate.code).toBe(0);
  }, 60_000);
});
