import { execFile } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type FreshNamespace, freshNamespace, testDatabase } from "@authsvc/adapters/testing";
import { TEST_JWT_SECRET } from "@authsvc/http/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ServerProcess, startServer } from "./support/server-process.js";

/**
 * The package as a user installs it: `npm run pack`'s tarball installed into empty folders (locally
 * and globally, under a temporary prefix), then run from there with nothing of the repository —
 * embedded, and on PostgreSQL after `authsvc migrate`; a user signs up each time.
 */
const root = fileURLToPath(new URL("..", import.meta.url));
const version = (JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { version: string }).version;
const work = mkdtempSync(join(tmpdir(), "authsvc-package-"));
const app = join(work, "app");
const globalPrefix = join(work, "global");
let tarball = "";
let ns: FreshNamespace | undefined;
const servers: ServerProcess[] = [];

function run(file: string, args: string[], cwd: string, env: Record<string, string> = {}) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    execFile(
      file,
      args,
      { cwd, env: { ...process.env, ...env }, timeout: 300_000, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) =>
        resolve({
          code: error === null ? 0 : typeof error.code === "number" ? error.code : null,
          stdout,
          stderr,
        }),
    ),
  );
}

/** npm as a user runs it, from the cache the repository's install filled when it can. */
const npm = (args: string[], cwd: string) =>
  run("npm", [...args, "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error"], cwd);

beforeAll(async () => {
  const packed = await run(process.execPath, ["--import", "tsx", "scripts/pack.ts", work], root);
  expect(packed.stderr).toBe("");
  tarball = join(work, `authsvc-${version}.tgz`);
  expect(existsSync(tarball)).toBe(true);
  mkdirSync(app);
  const installed = await npm(["install", tarball], app);
  expect(installed.code, installed.stderr).toBe(0);
}, 600_000);

afterAll(async () => {
  for (const server of servers) await server.stop();
  await ns?.drop();
  rmSync(work, { recursive: true, force: true });
}, 300_000);

const bin = () => join(app, "node_modules", "authsvc", "bin", "authsvc.js");

/** A server of the installed package, in `cwd`, with exactly `env` (and PATH). */
async function serve(cwd: string, env: Record<string, string>): Promise<ServerProcess> {
  const server = await startServer(
    { AUTHSVC_API_PORT: "0", AUTHSVC_API_HOST: "127.0.0.1", ...env },
    { cwd, entry: bin() },
  );
  servers.push(server);
  return server;
}

async function signUp(server: ServerProcess, apikey: string): Promise<number> {
  const res = await fetch(`${server.url}/signup`, {
    method: "POST",
    headers: { apikey, "content-type": "application/json" },
    body: JSON.stringify({ email: "installed@example.com", password: "a-long-enough-password-1" }),
  });
  return res.status;
}

describe("the installed package", () => {
  it("brings only runtime dependencies", () => {
    const installed = readdirSync(join(app, "node_modules"));
    for (const tool of ["vitest", "testcontainers", "playwright-core", "tsx", "typescript", "@biomejs"])
      expect(installed).not.toContain(tool);
    const bundled = readdirSync(join(app, "node_modules", "authsvc", "node_modules"));
    expect(bundled.filter((name) => name !== ".bin")).toEqual(["@authsvc", "postgres"]);
  });

  it("answers --version through npx", async () => {
    const answer = await run("npx", ["--no-install", "authsvc", "--version"], app);
    expect(answer).toMatchObject({ code: 0, stdout: `authsvc ${version}\n` });
  });

  it("serves in embedded mode in an empty folder, and a user signs up", async () => {
    const folder = mkdtempSync(join(work, "embedded-"));
    const server = await serve(folder, {});
    const key = await run(process.execPath, [bin(), "api-keys", "--role", "anon"], folder, {});
    expect(key.code).toBe(0);
    expect(await signUp(server, key.stdout.trim())).toBe(200);
  }, 120_000);

  it("migrates and serves a PostgreSQL database, and a user signs up", async () => {
    ns = await freshNamespace();
    const env = {
      DATABASE_URL: testDatabase().url,
      AUTHSVC_DB_NAMESPACE: ns.namespace,
      AUTHSVC_DB_PREPARED_STATEMENTS: testDatabase().embedded ? "false" : "true",
      AUTHSVC_SITE_URL: "http://localhost:3000",
      AUTHSVC_API_EXTERNAL_URL: "http://localhost:9999",
      AUTHSVC_JWT_SECRET: TEST_JWT_SECRET,
      AUTHSVC_MAILER_AUTOCONFIRM: "true",
    };
    const migrated = await run(process.execPath, [bin(), "migrate"], app, env);
    expect(migrated.code, migrated.stderr).toBe(0);
    const server = await serve(app, env);
    const key = await run(process.execPath, [bin(), "api-keys", "--role", "anon"], app, env);
    expect(await signUp(server, key.stdout.trim())).toBe(200);
  }, 120_000);

  it("installs globally, and its command runs from the prefix's bin", async () => {
    const installed = await npm(["install", "--global", "--prefix", globalPrefix, tarball], work);
    expect(installed.code, installed.stderr).toBe(0);
    const answer = await run(join(globalPrefix, "bin", "authsvc"), ["--version"], work);
    expect(answer).toMatchObject({ code: 0, stdout: `authsvc ${version}\n` });
  }, 600_000);
});
