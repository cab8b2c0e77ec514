import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type FreshNamespace, freshNamespace, migratedNamespace } from "../testing/database.js";
import type { Sql } from "./connect.js";
import { listMigrations, MigrationError, migrate, resolveMigrationsDir } from "./migrate.js";
import { functionsDirOf, listFunctions } from "./migrate-functions.js";

/** The last numbered migration that defines a function: the release before function files ended there. */
const LAST_DEFINING_MIGRATION = "0014";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function namespace(migrated = false): Promise<FreshNamespace> {
  const ns = migrated ? await migratedNamespace() : await freshNamespace();
  cleanups.push(ns.drop);
  return ns;
}

interface Files {
  /** Numbered migrations added after the shipped ones, by file name. */
  migrations?: Record<string, string>;
  /** Function files, by name, replacing or added to the shipped ones; null removes a shipped one. */
  functions?: Record<string, string | null>;
  /** What to start from: the shipped migrations and functions (default), the migrations, or nothing. */
  shipped?: "all" | "migrations" | "nothing";
  /** Only the shipped migrations up to this version (a release that had no more). */
  through?: string;
}

/** A migrations directory: the shipped files (unless told otherwise) with `files` laid over them. */
async function migrationsDir(files: Files = {}): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "authsvc-functions-"));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  const functionsDir = functionsDirOf(dir);
  await mkdir(functionsDir);
  const shipped = files.shipped ?? "all";
  if (shipped !== "nothing") {
    for (const m of await listMigrations(resolveMigrationsDir())) {
      if (files.through === undefined || m.version <= files.through)
        await copyFile(m.path, join(dir, `${m.name}.sql`));
    }
  }
  if (shipped === "all") {
    for (const fn of await listFunctions(functionsDirOf(resolveMigrationsDir())))
      await copyFile(fn.path, join(functionsDir, `${fn.name}.sql`));
  }
  for (const [file, text] of Object.entries(files.migrations ?? {})) await writeFile(join(dir, file), text);
  for (const [name, text] of Object.entries(files.functions ?? {})) {
    if (text === null) await rm(join(functionsDir, `${name}.sql`));
    else await writeFile(join(functionsDir, `${name}.sql`), text);
  }
  return dir;
}

/** The file name of the `nth` numbered migration after the shipped ones. */
async function nextMigration(name: string, nth = 1): Promise<string> {
  // After the highest shipped number: numbers may land out of order, leaving gaps.
  const versions = (await listMigrations(resolveMigrationsDir())).map((m) => Number(m.version));
  return `${String(Math.max(0, ...versions) + nth).padStart(4, "0")}_${name}.sql`;
}

/**
 * Every function of the namespace as the catalog defines it (text, settings, privileges), with the
 * namespace's name blanked so that two namespaces compare.
 */
async function definitions(sql: Sql, schema: string): Promise<Record<string, string>> {
  const rows = await sql<{ signature: string; definition: string; acl: string | null }[]>`
    select
      p.oid::regprocedure::text as signature,
      pg_get_functiondef(p.oid) as definition,
      p.proacl::text as acl
    from pg_catalog.pg_proc p
    join pg_catalog.pg_namespace n on n.oid = p.pronamespace
    where n.nspname = ${schema}
    order by 1
  `;
  const blank = (text: string) => text.replaceAll(schema, "<ns>");
  return Object.fromEntries(rows.map((r) => [blank(r.signature), blank(`${r.definition}\nacl ${r.acl}`)]));
}

async function recorded(sql: Sql, schema: string): Promise<string[]> {
  const rows = await sql<{ name: string }[]>`
    select distinct name from ${sql(schema)}.schema_functions order by 1
  `;
  return rows.map((r) => r.name);
}

const shippedNames = async () =>
  (await listFunctions(functionsDirOf(resolveMigrationsDir()))).map((fn) => fn.name);

const answer = (value: number, args = "") =>
  `create or replace function {{namespace}}.answer(${args})\nreturns int\nlanguage sql\nas $$ select ${value} $$;\n`;

describe("database functions", () => {
  it("are each in one file, which recreates the function exactly as the numbered migrations left it", async () => {
    const { sql, namespace: ns } = await namespace();
    // A database of the release before function files (migrations through 0014): its functions come
    // from the migrations alone.
    await migrate(sql, {
      namespace: ns,
      migrationsDir: await migrationsDir({ shipped: "migrations", through: LAST_DEFINING_MIGRATION }),
    });
    await sql`drop table ${sql(ns)}.schema_functions`;
    const before = await definitions(sql, ns);

    const upgrade = await migrate(sql, { namespace: ns, migrationsDir: resolveMigrationsDir() });
    const names = await shippedNames();
    // Every migration after 0014 applies (0015_mfa_attempts, 0016_grant_client_address, and later ones).
    const later = (await listMigrations(resolveMigrationsDir()))
      .filter((m) => m.version > LAST_DEFINING_MIGRATION)
      .map((m) => m.name);
    expect(later.slice(0, 2)).toEqual(["0015_mfa_attempts", "0016_grant_client_address"]);
    // Those a migration needs are created before it, the others after every migration.
    expect({ ...upgrade, functions: [...upgrade.functions].sort() }).toEqual({
      applied: later,
      functions: names,
    });
    const after = await definitions(sql, ns);
    // 0016 gave the two grants a last parameter, the client's address, 0017 the refresh grant one
    // more, the OAuth client, and 0028 another, the DPoP key its session is bound to; the snapshot triggers learned the bulk path (user_snapshots_flush and
    // user_snapshots_flush_users, files of their own with the two they call); 0021 added the user
    // counts' triggers; authentication's read without named statements (user_and_session) and the
    // back-channel logout's trigger (oauth_logout_recorded, 0031) are new;
    // every other function is as it was.
    const changed = (signature: string) => /\.(password|refresh_token)_grant\(/.test(signature);
    const rewritten = (signature: string) =>
      /\.(user_snapshot_of_user|user_snapshot_of_owner|user_snapshots_rebuild)\(/.test(signature);
    const addedSignatures: Record<string, string> = {
      oauth_logout_recorded: "",
      user_and_session: "uuid,uuid",
      user_counts_added: "",
      user_counts_cleared: "",
      user_counts_moved: "",
      user_counts_rebuild: "",
      user_counts_removed: "",
      user_snapshot_bodies: "uuid[]",
      user_snapshots_flush: "",
      user_snapshots_flush_users: "uuid[]",
      user_snapshots_write_set: "uuid[]",
    };
    const added = Object.keys(addedSignatures);
    const isAdded = (signature: string) => added.some((name) => signature.startsWith(`<ns>.${name}(`));
    const unchanged = (defs: Record<string, string>) =>
      Object.fromEntries(
        Object.entries(defs).filter(
          ([signature]) => !changed(signature) && !rewritten(signature) && !isAdded(signature),
        ),
      );
    expect(unchanged(after)).toEqual(unchanged(before));
    expect(Object.keys(after).filter(isAdded).sort()).toEqual(
      added.map((name) => `<ns>.${name}(${addedSignatures[name]})`),
    );
    for (const signature of Object.keys(before).filter(rewritten)) {
      expect(after[signature]).not.toEqual(before[signature]);
    }
    expect(Object.keys(after).filter(changed)).toEqual(
      Object.keys(before)
        .filter(changed)
        .map((signature) =>
          signature.replace(/\)$/, signature.includes("refresh_token_grant") ? ",text,uuid,text)" : ",text)"),
        ),
    );
    // Every function the migrations create has its file, and no file names a function they lack.
    expect(Object.keys(before).map((signature) => signature.replace(/^<ns>\.|\(.*$/g, ""))).toEqual(
      names.filter((name) => !added.includes(name)),
    );
    expect(await recorded(sql, ns)).toEqual(names);
  });

  it("are applied again only when their text changed", async () => {
    const { sql, namespace: ns } = await namespace(true);
    const first = await migrationsDir({ functions: { answer: answer(41) } });
    expect(await migrate(sql, { namespace: ns, migrationsDir: first })).toEqual({
      applied: [],
      functions: ["answer"],
    });
    expect((await migrate(sql, { namespace: ns, migrationsDir: first })).functions).toEqual([]);

    const log: [string, object | undefined][] = [];
    const second = await migrationsDir({ functions: { answer: answer(42) } });
    const result = await migrate(sql, {
      namespace: ns,
      migrationsDir: second,
      log: (msg, fields) => log.push([msg, fields]),
    });
    expect(result).toEqual({ applied: [], functions: ["answer"] });
    expect(log).toEqual([
      ["applied function", { namespace: ns, function: "answer", ms: expect.any(Number) }],
    ]);
    const [row] = await sql`select ${sql(ns)}.answer() as value`;
    expect(row?.value).toBe(42);
  });

  it("go forward only: an older build's text never replaces the newer one it was replaced by", async () => {
    const { sql, namespace: ns } = await namespace(true);
    const older = await migrationsDir({ functions: { answer: answer(1) } });
    const newer = await migrationsDir({ functions: { answer: answer(2) } });
    await migrate(sql, { namespace: ns, migrationsDir: older });
    expect((await migrate(sql, { namespace: ns, migrationsDir: newer })).functions).toEqual(["answer"]);

    // An instance of the older build restarting during a rolling deploy.
    const log: string[] = [];
    const again = await migrate(sql, { namespace: ns, migrationsDir: older, log: (msg) => log.push(msg) });
    expect(again.functions).toEqual([]);
    expect(log).toEqual(["database function left as a newer build made it"]);
    const [kept] = await sql`select ${sql(ns)}.answer() as value`;
    expect(kept?.value).toBe(2);

    // A later text goes in; so does an older one once its function is gone.
    const later = await migrationsDir({ functions: { answer: answer(3) } });
    expect((await migrate(sql, { namespace: ns, migrationsDir: later })).functions).toEqual(["answer"]);
    await sql`drop function ${sql(ns)}.answer()`;
    expect((await migrate(sql, { namespace: ns, migrationsDir: older })).functions).toEqual(["answer"]);
    const [back] = await sql`select ${sql(ns)}.answer() as value`;
    expect(back?.value).toBe(1);
  });

  it("are created again when a migration dropped them, as a change of arguments does", async () => {
    const { sql, namespace: ns } = await namespace(true);
    await migrate(sql, {
      namespace: ns,
      migrationsDir: await migrationsDir({ functions: { answer: answer(1) } }),
    });
    const dir = await migrationsDir({
      migrations: {
        [await nextMigration("answer_arguments")]: "drop function {{namespace}}.answer();\n",
        [await nextMigration("drop_jwt", 2)]: "drop function {{namespace}}.jwt();\n",
      },
      functions: { answer: answer(2, "p_x int") },
    });
    const result = await migrate(sql, { namespace: ns, migrationsDir: dir });
    expect(result.functions).toEqual(["answer", "jwt"]);
    const signatures = Object.keys(await definitions(sql, ns));
    expect(signatures).toContain("<ns>.answer(integer)");
    expect(signatures).not.toContain("<ns>.answer()");
    expect(signatures).toContain("<ns>.jwt()");
  });

  it("that a migration names are created just before it, as a trigger on a new function needs", async () => {
    const { sql, namespace: ns } = await namespace(true);
    const stamp = [
      "create or replace function {{namespace}}.stamp_thing()",
      "returns trigger",
      "language plpgsql",
      "as $$",
      "begin",
      "  new.label := 'stamped';",
      "  return new;",
      "end;",
      "$$;",
      "",
    ].join("\n");
    const trigger =
      "create trigger stamp before insert on {{namespace}}.thing\n" +
      "  for each row execute function {{namespace}}.stamp_thing();\n";
    const files = async (header: string) =>
      migrationsDir({
        migrations: {
          [await nextMigration("thing")]: "create table {{namespace}}.thing (id int, label text);\n",
          [await nextMigration("stamp_thing", 2)]: `${header}${trigger}`,
        },
        functions: { stamp_thing: stamp },
      });

    // Without the line, the function would come only after every migration: too late.
    await expect(migrate(sql, { namespace: ns, migrationsDir: await files("") })).rejects.toThrow(
      /stamp_thing failed: function .*stamp_thing\(\) does not exist/,
    );
    const dir = await files("-- needs functions: stamp_thing\n");
    expect((await migrate(sql, { namespace: ns, migrationsDir: dir })).functions).toEqual(["stamp_thing"]);
    const [row] = await sql`insert into ${sql(ns)}.thing (id) values (1) returning label`;
    expect(row?.label).toBe("stamped");
  });

  it("that fail roll back the whole run, migrations included", async () => {
    const { sql, namespace: ns } = await namespace(true);
    const before = await definitions(sql, ns);
    const dir = await migrationsDir({
      migrations: { [await nextMigration("thing")]: "create table {{namespace}}.thing (id int);\n" },
      functions: {
        answer: answer(3),
        broken:
          "create or replace function {{namespace}}.broken()\nreturns int\nlanguage sql\nas $$ select nope $$;\n",
      },
    });
    const error = await migrate(sql, { namespace: ns, migrationsDir: dir }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MigrationError);
    expect((error as Error).message).toMatch(/^function broken failed: column "nope" does not exist/);
    const [thing] = await sql`select to_regclass(${`${ns}.thing`}) as oid`;
    expect(thing?.oid).toBeNull();
    expect(await definitions(sql, ns)).toEqual(before);
    expect(await recorded(sql, ns)).toEqual(await shippedNames());
  });

  it("are left as they are when a newer build has migrated the database", async () => {
    const { sql, namespace: ns } = await namespace(true);
    const newer = (await nextMigration("newer")).slice(0, 4);
    await sql`insert into ${sql(ns)}.schema_migrations (version) values (${newer})`;
    const log: string[] = [];
    const result = await migrate(sql, {
      namespace: ns,
      migrationsDir: await migrationsDir({ functions: { answer: answer(4) } }),
      log: (msg) => log.push(msg),
    });
    expect(result).toEqual({ applied: [], functions: [] });
    expect(log).toContain("database functions left as the newer build made them");
    expect(Object.keys(await definitions(sql, ns))).not.toContain("<ns>.answer()");
  });

  it(`live only in their files: no numbered migration after ${LAST_DEFINING_MIGRATION} creates one`, async () => {
    // 0001–0014 ran on databases in use and stay as they are; the files hold their functions' current texts.
    const defining: string[] = [];
    for (const m of await listMigrations(resolveMigrationsDir())) {
      if (/\bcreate\s+(or\s+replace\s+)?function\b/i.test(await readFile(m.path, "utf8")))
        defining.push(m.version);
    }
    expect(defining).toEqual([
      "0001",
      "0008",
      "0009",
      "0010",
      "0011",
      "0012",
      "0013",
      LAST_DEFINING_MIGRATION,
    ]);
  });

  it.each([
    ["a misnamed file", { "Answer-1": answer(1) }, /function Answer-1\.sql: name must match/],
    [
      "a plain create",
      { answer: answer(1).replace(" or replace", "") },
      /answer: must contain "create or replace/,
    ],
    [
      "a file named for another function",
      { other: answer(1) },
      /other: must contain "create or replace function/,
    ],
    [
      "two functions in one file",
      { answer: `${answer(1)}${answer(2, "p int").replace("answer", "answer_two")}` },
      /answer: defines 2 functions/,
    ],
    [
      "an unknown placeholder",
      { answer: answer(1).replace("int\n", "{{type}}\n") },
      /answer: unknown placeholder/,
    ],
  ])("with %s are refused before the database is touched", async (_, functions, message) => {
    const { sql, namespace: ns } = await namespace();
    const dir = await migrationsDir({
      shipped: "nothing",
      functions,
      migrations: { "0001_a.sql": "select 1;" },
    });
    await expect(migrate(sql, { namespace: ns, migrationsDir: dir })).rejects.toThrow(message);
    const [schema] = await sql`select to_regnamespace(${ns}) as oid`;
    expect(schema?.oid).toBeNull();
  });

  it("named by a migration must have their file, checked before the database is touched", async () => {
    const { sql, namespace: ns } = await namespace();
    const dir = await migrationsDir({
      shipped: "nothing",
      migrations: { "0001_a.sql": "-- needs functions: answer, missing\nselect 1;" },
      functions: { answer: answer(1) },
    });
    await expect(migrate(sql, { namespace: ns, migrationsDir: dir })).rejects.toThrow(
      /migration 0001_a: needs function missing, which has no file/,
    );
    const [schema] = await sql`select to_regnamespace(${ns}) as oid`;
    expect(schema?.oid).toBeNull();
  });

  it("are required: a migrations directory without its functions folder is refused", async () => {
    const { sql, namespace: ns } = await namespace();
    const dir = await migrationsDir({ shipped: "nothing", migrations: { "0001_a.sql": "select 1;" } });
    await rm(functionsDirOf(dir), { recursive: true });
    await expect(migrate(sql, { namespace: ns, migrationsDir: dir })).rejects.toThrow(
      /functions directory not found/,
    );
  });
});
