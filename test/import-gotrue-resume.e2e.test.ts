import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type FreshNamespace, freshNamespace, testDatabase } from "@authsvc/adapters/testing";
import { productionServerEnv } from "@authsvc/http/testing";
import { hashSync } from "bcryptjs";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createGotrueSchema, fillGotrueBulk } from "./support/gotrue-source.js";
import { runServer, SERVER_ENTRY } from "./support/server-process.js";
import { snapshotsOutOfStep } from "./support/user-snapshots.js";

/**
 * An import killed in the middle (SIGKILL: no chance to tidy up) leaves whole batches behind, and
 * running it again finishes the job without copying anything twice.
 */
const USERS = 2000;
const BATCH = 100;
let target: FreshNamespace;
let sourceSchema: string;
const cwd = mkdtempSync(join(tmpdir(), "authsvc-import-resume-"));

beforeAll(async () => {
  target = await freshNamespace();
  sourceSchema = `g_${randomBytes(6).toString("hex")}`;
  await createGotrueSchema(target.sql, sourceSchema);
  await fillGotrueBulk(target.sql, sourceSchema, USERS, hashSync("pw", 4).replace(/^\$2b\$/, "$2a$"));
}, 120_000);

afterAll(async () => {
  await target.sql`drop schema if exists ${target.sql(sourceSchema)} cascade`;
  await target.drop();
  rmSync(cwd, { recursive: true, force: true });
});

const args = () => [
  "import-gotrue",
  "--from",
  testDatabase().url,
  "--schema",
  sourceSchema,
  "--batch-size",
  String(BATCH),
];
const copied = async () => {
  const [row] = await target.sql<{ n: string }[]>`
    select count(*) as n from ${target.sql(`${target.namespace}.users`)}
  `.catch(() => [{ n: "0" }]);
  return Number(row?.n ?? 0);
};

/**
 * Waits until no other session holds a lock on the target's users: a batch whose COMMIT the server
 * had already received when the client died still commits (its deferred triggers run
 * first), so counting before its lock is released can miss it.
 */
async function importLocksReleased(): Promise<void> {
  const users = `${target.namespace}.users`;
  for (let i = 0; i < 600; i++) {
    const [row] = await target.sql<{ n: string }[]>`
      select count(*) as n from pg_locks
      where relation = to_regclass(${users}) and pid <> pg_backend_pid()`;
    if (Number(row?.n) === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error("the killed import still holds a lock on the users");
}

it("resumes after being killed: whole batches stay, the next run copies the rest once", async () => {
  const child = spawn(process.execPath, [SERVER_ENTRY, ...args()], {
    cwd,
    env: { PATH: process.env.PATH ?? "", ...productionServerEnv(target) },
    stdio: "ignore",
  });
  const exited = new Promise<NodeJS.Signals | null>((resolve) =>
    child.once("close", (_code, signal) => resolve(signal)),
  );
  let finished = false;
  void exited.then(() => {
    finished = true;
  });
  let seen = 0;
  while (seen < 3 * BATCH) {
    if (finished) throw new Error("the import ended before it could be interrupted");
    await new Promise((resolve) => setTimeout(resolve, 20));
    seen = await copied();
  }
  child.kill("SIGKILL");
  expect(await exited).toBe("SIGKILL");
  await importLocksReleased();

  const left = await copied();
  expect(left).toBeGreaterThanOrEqual(3 * BATCH);
  expect(left).toBeLessThan(USERS);
  expect(left % BATCH).toBe(0); // each batch commits whole, or not at all

  const run = await runServer(productionServerEnv(target), { cwd, args: args() });
  expect(run.stderr).toBe("");
  expect(run.code).toBe(0);
  const users = run.stdout.split("\n").find((l) => l.trim().startsWith("users "));
  // table, read, inserted, updated, unchanged, rejected
  expect(users?.trim().split(/\s+/).slice(0, 6)).toEqual([
    "users",
    USERS.toLocaleString("en-US"),
    (USERS - left).toLocaleString("en-US"),
    "0",
    left.toLocaleString("en-US"),
    "0",
  ]);
  expect(await copied()).toBe(USERS);
  // The killed run's batches and the resumed run's: every user's snapshot, as a single writer builds it.
  expect(await snapshotsOutOfStep(target.sql, target.namespace)).toEqual([]);
}, 120_000);
