import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type FreshNamespace, freshNamespace, testDatabase } from "@authsvc/adapters/testing";
import { productionServerEnv } from "@authsvc/http/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runServer } from "./support/server-process.js";

/**
 * `authsvc import-gotrue` refusing what it cannot do: its usage, an unknown option, a schema that is
 * not the reference's, a source it cannot reach — each a plain sentence and an exit code, no crash.
 */
let target: FreshNamespace;
const cwd = mkdtempSync(join(tmpdir(), "authsvc-import-refusals-"));
const env = () => productionServerEnv(target);

beforeAll(async () => {
  target = await freshNamespace();
});

afterAll(async () => {
  await target.drop();
  rmSync(cwd, { recursive: true, force: true });
});

describe("authsvc import-gotrue refusals", () => {
  it("answers --help with its usage", async () => {
    const run = await runServer({}, { cwd, args: ["import-gotrue", "--help"] });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^usage: authsvc import-gotrue --from <database URL> \[--schema auth\]/);
  });

  it("refuses an unknown option with the usage, before touching any database", async () => {
    const run = await runServer(
      {},
      { cwd, args: ["import-gotrue", "--from", "postgres://x@127.0.0.1:1/x", "--force"] },
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      "authsvc import-gotrue: unknown option --force\nusage: authsvc import-gotrue",
    );
  });

  it("says plainly that a schema is not the reference's, and writes nothing", async () => {
    const run = await runServer(env(), {
      cwd,
      args: ["import-gotrue", "--from", testDatabase().url, "--schema", "no_gotrue_here"],
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      "the source has no users, identities, mfa_factors, mfa_amr_claims, sessions, refresh_tokens in schema no_gotrue_here",
    );
  });

  it("fails with the connection's error, not a crash, when the source cannot be reached", async () => {
    const run = await runServer(env(), {
      cwd,
      args: ["import-gotrue", "--from", "postgres://someone:hunter2@127.0.0.1:1/gotrue"],
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^authsvc import-gotrue: .*ECONNREFUSED/);
    expect(run.stderr).not.toContain("hunter2");
  });

  it("names no password of a database URL it cannot connect to, however the password is spelt", async () => {
    // Digits then `#`: read as host `someone`, port 123 and no password by the URL parser and by
    // postgres.js alike, so the URL in the connection error is not masked by parsing it.
    const run = await runServer(
      {
        ...env(),
        DATABASE_URL: "postgres://someone:123#hunter2@127.0.0.1:1/gotrue",
        AUTHSVC_DB_STARTUP_TIMEOUT: "0",
      },
      { cwd, args: ["import-gotrue", "--from", testDatabase().url] },
    );
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^authsvc import-gotrue: cannot connect to the database of DATABASE_URL/);
    expect(run.stderr).not.toContain("hunter2");
  });
});
