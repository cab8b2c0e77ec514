import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type FreshNamespace, migratedNamespace, testDatabase } from "@authsvc/adapters/testing";
import { parse } from "dotenv";
import { decodeProtectedHeader } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "./support/cli.js";
import { type ServerProcess, startServer } from "./support/server-process.js";

/**
 * `authsvc init` and `authsvc keys --write` as an operator runs them: the .env they write is the
 * only configuration of the server started in that folder (the environment names the test's
 * namespace and port alone), through the staged move from the JWT secret to an asymmetric key.
 */
const dir = mkdtempSync(join(tmpdir(), "authsvc-init-"));
const envFile = join(dir, ".env");
let ns: FreshNamespace;
let server: ServerProcess | undefined;
/** The anon key signed as the .env in use signs. */
let apikey = "";

beforeAll(async () => {
  ns = await migratedNamespace();
}, 60_000);

afterAll(async () => {
  await server?.stop();
  await ns?.drop();
  rmSync(dir, { recursive: true, force: true });
});

const flags = () => [
  "--database-url",
  testDatabase().url,
  "--site-url",
  "http://localhost:3000",
  "--api-external-url",
  "http://localhost:9999",
];
const dotenv = () => parse(readFileSync(envFile, "utf8"));
const cli = (args: string[]) => runCli(args, { cwd: dir });

/** The server of the folder, its configuration from the .env written there. */
async function restart(): Promise<ServerProcess> {
  await server?.stop();
  server = await startServer(
    {
      AUTHSVC_DB_NAMESPACE: ns.namespace,
      AUTHSVC_DB_PREPARED_STATEMENTS: testDatabase().embedded ? "false" : "true",
      AUTHSVC_API_HOST: "127.0.0.1",
      AUTHSVC_MAILER_AUTOCONFIRM: "true",
      PORT: "0",
    },
    { cwd: dir },
  );
  const run = await cli(["api-keys", "--role", "anon"]);
  expect(run.code).toBe(0);
  apikey = run.stdout.trim();
  return server;
}

async function signIn(email: string): Promise<string> {
  const body = JSON.stringify({ email, password: "a-long-enough-password-1" });
  const headers = { apikey, "content-type": "application/json" };
  await fetch(`${server?.url}/signup`, { method: "POST", headers, body });
  const res = await fetch(`${server?.url}/token?grant_type=password`, { method: "POST", headers, body });
  expect(res.status).toBe(200);
  return ((await res.json()) as { access_token: string }).access_token;
}

async function userStatus(token: string): Promise<number> {
  const res = await fetch(`${server?.url}/user`, {
    headers: { apikey, authorization: `Bearer ${token}` },
  });
  return res.status;
}

describe("authsvc init", () => {
  it("asks for the flags it lacks when not on a terminal, writing nothing", async () => {
    const run = await cli(["init", "--site-url", "http://localhost:3000"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("not a terminal: give --database-url, --api-external-url");
    expect(() => statSync(envFile)).toThrow();
  });

  it("writes a .env for PostgreSQL mode, readable by its owner only, and never overwrites it without --force", async () => {
    const first = await cli(["init", ...flags()]);
    expect(first.code).toBe(0);
    expect(statSync(envFile).mode & 0o777).toBe(0o600);
    const written = dotenv();
    expect(written.AUTHSVC_DATABASE_URL).toBe(testDatabase().url);
    expect(written.AUTHSVC_JWT_SECRET).toMatch(/^[\w-]{64}$/);
    const again = await cli(["init", ...flags()]);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain("exists: give --force");
    expect(dotenv()).toEqual(written);
    expect((await cli(["init", ...flags(), "--force"])).code).toBe(0);
    expect(dotenv().AUTHSVC_JWT_SECRET).not.toBe(written.AUTHSVC_JWT_SECRET);
  });

  it("moves from the secret to an ES256 key in stages, each one written into the .env and served", async () => {
    await restart();
    const secretToken = await signIn("staged@example.com");
    expect(decodeProtectedHeader(secretToken)).toMatchObject({ alg: "HS256" });

    // 1. The new key published as a standby while the secret keeps signing.
    const staged = await cli(["keys", "--add", "--standby", "--write", ".env"]);
    expect(staged.code).toBe(0);
    expect(staged.stdout).toBe("");
    const keys = JSON.parse(dotenv().AUTHSVC_JWT_KEYS as string) as { kid: string; alg: string }[];
    const standby = keys.find((key) => key.alg === "ES256")?.kid as string;
    await restart();
    const jwks = (await (await fetch(`${server?.url}/.well-known/jwks.json`)).json()) as {
      keys: { kid: string }[];
    };
    expect(jwks.keys.map((key) => key.kid)).toEqual([standby]);
    expect(decodeProtectedHeader(await signIn("staged@example.com"))).toMatchObject({ alg: "HS256" });
    expect(await userStatus(secretToken)).toBe(200);

    // 2. Promoted: new tokens are ES256, the secret's still verify.
    expect((await cli(["keys", "--promote", standby, "--write", ".env"])).code).toBe(0);
    await restart();
    const keyToken = await signIn("staged@example.com");
    expect(decodeProtectedHeader(keyToken)).toMatchObject({ alg: "ES256", kid: standby });
    expect(await userStatus(secretToken)).toBe(200);

    // 3. The secret's key removed: its tokens stop verifying, the key's keep working.
    expect((await cli(["keys", "--remove", "legacy-secret", "--write", ".env"])).code).toBe(0);
    await restart();
    expect(await userStatus(keyToken)).toBe(200);
    expect(await userStatus(secretToken)).toBe(403);
  }, 180_000);
});
