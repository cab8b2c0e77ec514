import { copyFile, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  connectTestDatabase,
  type FreshNamespace,
  freshNamespace,
  migratedNamespace,
} from "../testing/database.js";
import type { Sql } from "./connect.js";
import { listMigrations, MigrationError, migrate, resolveMigrationsDir } from "./migrate.js";
import { functionsDirOf, listFunctions } from "./migrate-functions.js";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function namespace(migrated = false, maxPoolSize = 4): Promise<FreshNamespace> {
  const ns = migrated ? await migratedNamespace({ maxPoolSize }) : await freshNamespace({ maxPoolSize });
  cleanups.push(ns.drop);
  return ns;
}

/** A migrations directory holding the real migrations and functions plus `extra` files. */
async function migrationsDir(extra: Record<string, string>, withReal = true): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "authsvc-migrations-"));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  await mkdir(functionsDirOf(dir));
  if (withReal) {
    for (const m of await listMigrations(resolveMigrationsDir()))
      await copyFile(m.path, join(dir, `${m.name}.sql`));
    for (const fn of await listFunctions(functionsDirOf(resolveMigrationsDir())))
      await copyFile(fn.path, join(functionsDirOf(dir), `${fn.name}.sql`));
  }
  for (const [file, text] of Object.entries(extra)) await writeFile(join(dir, file), text);
  return dir;
}

/** The shipped migrations, and the file name a later release's next migration would have. */
async function shipped(): Promise<{ names: string[]; versions: string[]; next: (name: string) => string }> {
  const files = await listMigrations(resolveMigrationsDir());
  const next = String(Math.max(0, ...files.map((m) => Number(m.version))) + 1).padStart(4, "0");
  return {
    names: files.map((m) => m.name),
    versions: files.map((m) => m.version),
    next: (n) => `${next}_${n}`,
  };
}

async function tables(sql: Sql, schema: string): Promise<string[]> {
  const rows = await sql<{ table_name: string }[]>`
    select table_name from information_schema.tables where table_schema = ${schema} order by table_name
  `;
  return rows.map((r) => r.table_name);
}

async function versions(sql: Sql, schema: string): Promise<string[]> {
  const rows = await sql<
    { version: string }[]
  >`select version from ${sql(schema)}.schema_migrations order by 1`;
  return rows.map((r) => r.version);
}

async function schemaExists(sql: Sql, schema: string): Promise<boolean> {
  const rows = await sql`select 1 from information_schema.schemata where schema_name = ${schema}`;
  return rows.length === 1;
}

describe("migrate", () => {
  it("creates the namespace, every table and records the version", async () => {
    const { sql, namespace: ns } = await namespace();
    const log: string[] = [];
    const result = await migrate(sql, {
      namespace: ns,
      migrationsDir: resolveMigrationsDir(),
      log: (msg) => log.push(msg),
    });
    const { names, versions: all } = await shipped();
    const functions = (await listFunctions(functionsDirOf(resolveMigrationsDir()))).map((fn) => fn.name);
    expect(result.applied).toEqual(names);
    // Those a migration needs are created before it, the others after every migration.
    expect([...result.functions].sort()).toEqual(functions);
    expect([...log].sort()).toEqual([
      ...functions.map(() => "applied function"),
      ...names.map(() => "applied migration"),
    ]);
    expect(await tables(sql, ns)).toEqual([
      "audit_log_entries",
      "custom_oauth_providers",
      "dpop_proofs",
      "flow_state",
      "identities",
      "mfa_challenges",
      "mfa_factor_attempts",
      "mfa_factors",
      "mfa_recovery_codes",
      "oauth_authorizations",
      "oauth_client_assertion_jtis",
      "oauth_clients",
      "oauth_consents",
      "oauth_logout_deliveries",
      "oauth_pushed_requests",
      "oauth_scopes",
      "one_time_tokens",
      "refresh_tokens",
      "request_limits",
      "saml_providers",
      "saml_relay_states",
      "schema_functions",
      "schema_migrations",
      "send_quota",
      "sessions",
      "sign_in_failures",
      "sso_domains",
      "sso_providers",
      "user_counts",
      "user_snapshots",
      "users",
      "webauthn_challenges",
      "webauthn_credentials",
    ]);
    expect(await versions(sql, ns)).toEqual(all);
  });

  it("is a no-op when run again", async () => {
    const { sql, namespace: ns } = await namespace(true);
    const again = await migrate(sql, { namespace: ns, migrationsDir: resolveMigrationsDir() });
    expect(again).toEqual({ applied: [], functions: [] });
    expect(await versions(sql, ns)).toEqual((await shipped()).versions);
  });

  it("applies only the new files of a later release", async () => {
    const { sql, namespace: ns } = await namespace(true);
    const { versions: all, next } = await shipped();
    const dir = await migrationsDir({
      [`${next("add_thing")}.sql`]: "create table {{namespace}}.thing (id int);",
    });
    expect((await migrate(sql, { namespace: ns, migrationsDir: dir })).applied).toEqual([next("add_thing")]);
    expect(await versions(sql, ns)).toEqual([...all, next("add_thing").slice(0, 4)]);
  });

  it("applies a file whose lower number ships after a higher one, once", async () => {
    const { sql, namespace: ns } = await namespace(true);
    const { versions: all, next } = await shipped();
    const later = `${String(Number(next("x").slice(0, 4)) + 1).padStart(4, "0")}_later`;
    const first = await migrationsDir({ [`${later}.sql`]: "create table {{namespace}}.later (id int);" });
    expect((await migrate(sql, { namespace: ns, migrationsDir: first })).applied).toEqual([later]);
    const both = await migrationsDir({
      [`${later}.sql`]: "create table {{namespace}}.later (id int);",
      [`${next("earlier")}.sql`]: "create table {{namespace}}.earlier (id int);",
    });
    expect((await migrate(sql, { namespace: ns, migrationsDir: both })).applied).toEqual([next("earlier")]);
    expect((await migrate(sql, { namespace: ns, migrationsDir: both })).applied).toEqual([]);
    expect(await versions(sql, ns)).toEqual([...all, next("earlier").slice(0, 4), later.slice(0, 4)].sort());
  });

  it("migrates exactly once when two pools start at the same moment", async () => {
    const { sql, namespace: ns } = await namespace();
    const a = connectTestDatabase();
    const b = connectTestDatabase();
    cleanups.push(
      () => a.end(),
      () => b.end(),
    );
    const migrationsDir = resolveMigrationsDir();
    // Warm both pools so that the two transactions really start together.
    await Promise.all([a`select 1`, b`select 1`]);
    const results = await Promise.all([
      migrate(a, { namespace: ns, migrationsDir }),
      migrate(b, { namespace: ns, migrationsDir }),
    ]);
    const files = await listMigrations(migrationsDir);
    expect(results.flatMap((r) => r.applied).sort()).toEqual(files.map((m) => m.name));
    const functions = await listFunctions(functionsDirOf(migrationsDir));
    expect(results.flatMap((r) => r.functions).sort()).toEqual(functions.map((fn) => fn.name));
    expect(await versions(sql, ns)).toEqual(files.map((m) => m.version));
  });

  it("rolls a failing migration back completely, including the earlier files of the same run", async () => {
    const { sql, namespace: ns } = await namespace();
    const { next } = await shipped();
    const dir = await migrationsDir({
      [`${next("broken")}.sql`]:
        "create table {{namespace}}.partial (id int);\ncreate tabel {{namespace}}.oops (id int);",
    });
    const error = await migrate(sql, { namespace: ns, migrationsDir: dir }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MigrationError);
    expect((error as Error).message).toMatch(new RegExp(`^migration ${next("broken")} failed: syntax error`));
    expect(await schemaExists(sql, ns)).toBe(false);
  });

  it("leaves an already migrated namespace exactly as it was when a new file fails", async () => {
    const { sql, namespace: ns } = await namespace(true);
    const { versions: all, next } = await shipped();
    const dir = await migrationsDir({
      [`${next("broken")}.sql`]:
        "create table {{namespace}}.partial (id int);\nselect * from {{namespace}}.nope;",
    });
    await expect(migrate(sql, { namespace: ns, migrationsDir: dir })).rejects.toThrow(
      new RegExp(`${next("broken")} failed`),
    );
    expect(await versions(sql, ns)).toEqual(all);
    expect(await tables(sql, ns)).not.toContain("partial");
  });

  it.each([
    ["a duplicate", { "0001_a.sql": "select 1;", "0001_b.sql": "select 1;" }, /0001_b: .*duplicate/],
    ["number 0", { "0000_a.sql": "select 1;" }, /0000_a: .*duplicate/],
    ["a misnamed file", { "0001_a.sql": "select 1;", "2_b.sql": "select 1;" }, /2_b\.sql: name must match/],
    [
      "an unknown placeholder",
      { "0001_a.sql": "create table {{schema}}.x (id int);" },
      /unknown placeholder/,
    ],
  ])("rejects %s before touching the database", async (_, files, message) => {
    const { sql, namespace: ns } = await namespace();
    const dir = await migrationsDir(files, false);
    await expect(migrate(sql, { namespace: ns, migrationsDir: dir })).rejects.toThrow(message);
    expect(await schemaExists(sql, ns)).toBe(false);
  });

  it.each(["Auth", "1auth", "auth-x", 'auth"; drop schema public cascade; --', "", "a".repeat(64)])(
    "rejects the namespace %j",
    async (bad) => {
      const { sql } = await namespace();
      await expect(migrate(sql, { namespace: bad, migrationsDir: resolveMigrationsDir() })).rejects.toThrow(
        MigrationError,
      );
    },
  );
});

describe("SQL helpers", () => {
  const sub = "8a4d5c7e-6f1b-4c3d-9e2a-1b2c3d4e5f60";
  const claims = { sub, role: "authenticated", email: "a@b.c", aal: "aal1" };

  it("uid(), role(), email() and jwt() read request.jwt.claims as PostgREST sets it", async () => {
    const { sql, namespace: ns } = await namespace(true);
    const [row] = await sql.begin(async (tx) => {
      await tx`select set_config('request.jwt.claims', ${JSON.stringify(claims)}, true)`;
      return tx`
        select
          ${tx(ns)}.uid() as uid,
          ${tx(ns)}.role() as role,
          ${tx(ns)}.email() as email,
          ${tx(ns)}.jwt() as jwt
      `;
    });
    expect(row).toEqual({ uid: sub, role: "authenticated", email: "a@b.c", jwt: claims });
  });
  it("fall back to the legacy request.jwt.claim.* settings", async () => {
    const { sql, namespace: ns } = await namespace(true);
    const [row] = await sql.begin(async (tx) => {
      await tx`select set_config('request.jwt.claim.sub', ${sub}, true), set_config('request.jwt.claim.role', 'anon', true)`;
      return tx`select ${tx(ns)}.uid() as uid, ${tx(ns)}.role() as role, ${tx(ns)}.email() as email`;
    });
    expect(row).toEqual({ uid: sub, role: "anon", email: null });
  });

  it("return null without claims, also after a transaction that had them", async () => {
    // One connection, so that the second transaction runs in the session where the first set claims.
    const { sql, namespace: ns } = await namespace(true, 1);
    await sql.begin((tx) => tx`select set_config('request.jwt.claims', ${JSON.stringify(claims)}, true)`);
    const [row] = await sql.begin(
      (tx) => tx`select ${tx(ns)}.uid() as uid, ${tx(ns)}.role() as role, ${tx(ns)}.jwt() as jwt`,
    );
    expect(row).toEqual({ uid: null, role: null, jwt: null });
  });
});
