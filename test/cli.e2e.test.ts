import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  type FreshNamespace,
  freshNamespace,
  migratedNamespace,
  testDatabase,
} from "@authsvc/adapters/testing";
import { productionServerEnv, TEST_JWT_SECRET } from "@authsvc/http/testing";
import { jwtVerify } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AUTHSVC_BIN, runCli } from "./support/cli.js";
import { type ServerProcess, startServer } from "./support/server-process.js";

/**
 * The `authsvc` command as an operator runs it: the bin script executed directly, with only the
 * environment each case states. The keys it prints are tried on a running server.
 */
const cwd = mkdtempSync(join(tmpdir(), "authsvc-cli-"));
const COMMANDS = ["serve", "init", "migrate", "keys", "api-keys"];
let ns: FreshNamespace;
let server: ServerProcess | undefined;

beforeAll(async () => {
  ns = await migratedNamespace();
}, 60_000);

afterAll(async () => {
  await server?.stop();
  await ns?.drop();
  rmSync(cwd, { recursive: true, force: true });
});

/** The PostgreSQL-mode variables of `ns`, without the three other required ones. */
const databaseOnly = (namespace: string): Record<string, string> => {
  const { DATABASE_URL, AUTHSVC_DB_NAMESPACE, AUTHSVC_DB_PREPARED_STATEMENTS } = productionServerEnv({
    ...ns,
    namespace,
  });
  return { DATABASE_URL, AUTHSVC_DB_NAMESPACE, AUTHSVC_DB_PREPARED_STATEMENTS } as Record<string, string>;
};

async function restart(extra: Record<string, string> = {}): Promise<ServerProcess> {
  await server?.stop();
  server = await startServer(productionServerEnv(ns, extra), { cwd });
  return server;
}

/** GET /admin/users with `key` as the API key and bearer token: the status and error code. */
async function adminUsers(key: string) {
  const res = await fetch(`${server?.url}/admin/users`, {
    headers: { apikey: key, authorization: `Bearer ${key}` },
  });
  const body = (await res.json()) as Record<string, unknown>;
  return { status: res.status, error_code: body.error_code };
}

async function apiKeys(env: Record<string, string>): Promise<{ anon: string; service_role: string }> {
  const run = await runCli(["api-keys"], { env, cwd });
  expect(run).toMatchObject({ code: 0, stderr: "" });
  const lines = run.stdout.trim().split("\n");
  expect(lines.map((line) => line.split(/ +/)[0])).toEqual(["anon", "service_role"]);
  const [anon, serviceRole] = lines.map((line) => line.split(/ +/)[1] as string);
  return { anon: anon as string, service_role: serviceRole as string };
}

describe("help and refusals", () => {
  it("--help lists every command, exit 0; no output on stderr", async () => {
    const run = await runCli(["--help"], { cwd });
    expect(run.code).toBe(0);
    expect(run.stderr).toBe("");
    expect(run.stdout).toMatch(/^usage: authsvc <command> \[options\]/);
    for (const name of COMMANDS) expect(run.stdout).toMatch(new RegExp(`^  ${name} +\\S`, "m"));
  });

  it.each(COMMANDS)("%s --help prints its usage, exit 0", async (name) => {
    const run = await runCli([name, "--help"], { cwd });
    expect(run).toMatchObject({ code: 0, stderr: "" });
    expect(run.stdout).toMatch(new RegExp(`^usage: authsvc \\[?${name}`));
  });

  it("an unknown command is refused with the overview, exit 2", async () => {
    const run = await runCli(["migarte"], { cwd });
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toMatch(/^authsvc: unknown command migarte\nusage: authsvc <command>/);
  });

  it.each(COMMANDS)("%s refuses an unknown option with its usage, exit 2, touching nothing", async (name) => {
    const run = await runCli([name, "--frobnicate"], { cwd, env: databaseOnly("never_created") });
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toMatch(new RegExp(`^authsvc ${name}: .*--frobnicate.*\\nusage: authsvc \\[?${name}`));
  });

  it("api-keys refuses a role it does not know", async () => {
    const run = await runCli(["api-keys", "--role", "admin"], { cwd });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--role must be anon or service_role, got "admin"/);
  });

  it("runs through a link elsewhere, as an installed package's bin", async () => {
    const bin = join(cwd, "node_modules", ".bin");
    mkdirSync(bin, { recursive: true });
    symlinkSync(AUTHSVC_BIN, join(bin, "authsvc"));
    const run = await runCli(["--help"], { cwd, file: join(bin, "authsvc") });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("api-keys");
  });
});

describe("npx authsvc", () => {
  it("runs from the repository through package.json's bin", async () => {
    const root = fileURLToPath(new URL("..", import.meta.url));
    const run = await new Promise<{ code: number | null; stdout: string }>((resolve) =>
      execFile(
        "npx",
        ["--no-install", "authsvc", "api-keys", "--help"],
        { cwd: root, timeout: 60_000 },
        (error, stdout) =>
          resolve({ code: error === null ? 0 : typeof error.code === "number" ? error.code : null, stdout }),
      ),
    );
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^usage: authsvc api-keys/);
  });
});

describe("migrate", () => {
  it("needs only the database variables", async () => {
    const fresh = await freshNamespace();
    try {
      const run = await runCli(["migrate"], { cwd, env: databaseOnly(fresh.namespace) });
      expect(run.stderr).toBe("");
      expect(run.code).toBe(0);
      const [users] = await fresh.sql`select to_regclass(${`${fresh.namespace}.users`})::text as name`;
      expect(users?.name).toBe(`${fresh.namespace}.users`);
      // A second run has nothing to apply.
      const again = await runCli(["migrate"], { cwd, env: databaseOnly(fresh.namespace) });
      expect(again.code).toBe(0);
      expect(again.stdout).toMatch(/"applied":\[\]/);
    } finally {
      await fresh.drop();
    }
  });

  it("refuses a malformed database URL, naming the variable, never its password", async () => {
    const run = await runCli(["migrate"], { cwd, env: { DATABASE_URL: "mysql://u:pw-not-shown@h/db" } });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("DATABASE_URL");
    expect(run.stderr + run.stdout).not.toContain("pw-not-shown");
  });
});

describe("api-keys and keys", () => {
  it("api-keys in PostgreSQL mode prints keys the server accepts: service_role for admin, anon not", async () => {
    await restart();
    const keys = await apiKeys({ DATABASE_URL: testDatabase().url, AUTHSVC_JWT_SECRET: TEST_JWT_SECRET });
    expect(await adminUsers(keys.service_role)).toEqual({ status: 200, error_code: undefined });
    expect((await adminUsers(keys.anon)).status).toBe(403);
    const one = await runCli(["api-keys", "--role", "anon"], {
      cwd,
      env: { DATABASE_URL: testDatabase().url, AUTHSVC_JWT_SECRET: TEST_JWT_SECRET },
    });
    expect(one.stdout).toMatch(/^eyJ[\w-]+\.[\w-]+\.[\w-]+\n$/);
  });

  it("api-keys in embedded mode signs with the development secret kept in the data folder", async () => {
    const dir = mkdtempSync(join(cwd, "embedded-"));
    const run = await runCli(["api-keys", "--role", "service_role"], { cwd: dir });
    expect(run).toMatchObject({ code: 0, stderr: "" });
    const secret = readFileSync(join(dir, ".authsvc", "jwt-secret"), "utf8").trim();
    const { payload } = await jwtVerify(run.stdout.trim(), new TextEncoder().encode(secret));
    expect(payload.role).toBe("service_role");
    // The same secret the next time: the server started there accepts these keys.
    const again = await runCli(["api-keys", "--role", "service_role"], { cwd: dir });
    expect(readFileSync(join(dir, ".authsvc", "jwt-secret"), "utf8").trim()).toBe(secret);
    await jwtVerify(again.stdout.trim(), new TextEncoder().encode(secret));
  });

  it("api-keys in PostgreSQL mode without a secret says which variable is missing, exit 1", async () => {
    const run = await runCli(["api-keys"], { cwd, env: { DATABASE_URL: testDatabase().url } });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("AUTHSVC_JWT_SECRET: required");
  });

  it("a set from `keys` keeps the service_role key made with the secret working", async () => {
    const env = { AUTHSVC_JWT_SECRET: TEST_JWT_SECRET, DATABASE_URL: testDatabase().url };
    const old = await apiKeys(env);
    const made = await runCli(["keys"], { cwd, env });
    expect(made.code).toBe(0);
    expect(made.stderr).toContain('kept as the verify-only key "legacy-secret"');
    const set = made.stdout.trim();
    await restart({ AUTHSVC_JWT_KEYS: set });
    expect(await adminUsers(old.service_role)).toEqual({ status: 200, error_code: undefined });
    expect(server?.lines().filter((l) => String(l.msg).includes("no HS256 key"))).toEqual([]);
    // Keys made now are signed by the set's signing key, and work too.
    const fresh = await apiKeys({ ...env, AUTHSVC_JWT_KEYS: set });
    expect(fresh.service_role).not.toBe(old.service_role);
    expect(await adminUsers(fresh.service_role)).toEqual({ status: 200, error_code: undefined });
  }, 60_000);

  it("a set without the secret: `keys` says to re-make the API keys, and start warns", async () => {
    const env = { AUTHSVC_JWT_SECRET: TEST_JWT_SECRET, DATABASE_URL: testDatabase().url };
    const old = await apiKeys(env);
    const made = await runCli(["keys", "--without-secret"], { cwd, env });
    expect(made.code).toBe(0);
    expect(made.stderr).toMatch(/stop verifying \(403 bad_jwt\).*authsvc api-keys/);
    const set = made.stdout.trim();
    await restart({ AUTHSVC_JWT_KEYS: set });
    expect(server?.lines()).toContainEqual(
      expect.objectContaining({
        level: "warn",
        msg: expect.stringContaining("AUTHSVC_JWT_KEYS holds no HS256 key"),
      }),
    );
    expect(await adminUsers(old.service_role)).toEqual({ status: 403, error_code: "bad_jwt" });
    const remade = await apiKeys({ ...env, AUTHSVC_JWT_KEYS: set });
    expect(await adminUsers(remade.service_role)).toEqual({ status: 200, error_code: undefined });
  }, 60_000);
});
