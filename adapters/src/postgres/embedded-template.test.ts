import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { connectPostgres } from "./connect.js";
import { startEmbeddedPostgres } from "./embedded-server.js";
import { copyTemplate, defaultTemplateDir, prepareTemplate, usableTemplate } from "./embedded-template.js";
import { resolveMigrationsDir } from "./migrate.js";

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "authsvc-template-"));
  dirs.push(dir);
  return dir;
}

/** A stand-in for PGlite's initdb: a pgdata folder with PG_VERSION and one nested file. */
async function fakeBuild(dataDir: string): Promise<void> {
  await mkdir(join(dataDir, "pgdata", "base", "5"), { recursive: true });
  await writeFile(join(dataDir, "pgdata", "PG_VERSION"), "17\n");
  await writeFile(join(dataDir, "pgdata", "base", "5", "1259"), "catalog");
}

describe("the embedded database template", () => {
  it("is made once, then reused while the migrations are unchanged, and ignored once one changes", async () => {
    const root = await tempDir();
    const migrations = join(root, "migrations");
    await mkdir(join(migrations, "functions"), { recursive: true });
    await writeFile(join(migrations, "0001_initial.sql"), "create table a (id int);");
    await writeFile(join(migrations, "functions", "f.sql"), "create or replace function {{namespace}}.f() …");
    const template = join(root, "template");
    let builds = 0;
    const build = async (dataDir: string) => {
      builds++;
      await fakeBuild(dataDir);
    };

    expect(await usableTemplate(template, migrations)).toBeUndefined();
    expect(await prepareTemplate(template, migrations, build)).toBe(true);
    expect(await usableTemplate(template, migrations)).toBe(join(template, "pgdata"));
    expect(await prepareTemplate(template, migrations, build)).toBe(false);
    expect(builds).toBe(1);

    // An edited migration (same number) must never be served from the old template.
    await writeFile(join(migrations, "0001_initial.sql"), "create table a (id bigint);");
    expect(await usableTemplate(template, migrations)).toBeUndefined();
    expect(await prepareTemplate(template, migrations, build)).toBe(true);
    expect(builds).toBe(2);

    // So must a database function whose file changed: the template holds its older text.
    await writeFile(
      join(migrations, "functions", "f.sql"),
      "create or replace function {{namespace}}.f() …2",
    );
    expect(await usableTemplate(template, migrations)).toBeUndefined();
    expect(await prepareTemplate(template, migrations, build)).toBe(true);
    expect(builds).toBe(3);
  });

  it("is copied whole into an absent or empty pgdata folder, never over files", async () => {
    const root = await tempDir();
    await fakeBuild(join(root, "template"));
    const source = join(root, "template", "pgdata");

    await copyTemplate(source, join(root, "absent", "pgdata"));
    expect(await readFile(join(root, "absent", "pgdata", "base", "5", "1259"), "utf8")).toBe("catalog");
    expect(existsSync(join(root, "absent", "pgdata.partial"))).toBe(false);

    await mkdir(join(root, "empty", "pgdata"), { recursive: true });
    await copyTemplate(source, join(root, "empty", "pgdata"));
    expect(existsSync(join(root, "empty", "pgdata", "PG_VERSION"))).toBe(true);

    await mkdir(join(root, "used", "pgdata"), { recursive: true });
    await writeFile(join(root, "used", "pgdata", "keep"), "x");
    await expect(copyTemplate(source, join(root, "used", "pgdata"))).rejects.toThrow();
    expect(await readFile(join(root, "used", "pgdata", "keep"), "utf8")).toBe("x");
  });

  it("remakes the empty folders a packed template lost (npm pack keeps files only)", async () => {
    const root = await tempDir();
    const migrations = join(root, "migrations");
    await mkdir(migrations, { recursive: true });
    const template = join(root, "template");
    await prepareTemplate(template, migrations, async (dataDir) => {
      await fakeBuild(dataDir);
      await mkdir(join(dataDir, "pgdata", "pg_wal", "archive_status"), { recursive: true });
    });
    // What an installed package holds: the same files, no empty folder.
    await rm(join(template, "pgdata", "pg_wal"), { recursive: true });
    await copyTemplate(join(template, "pgdata"), join(root, "data", "pgdata"));
    expect(existsSync(join(root, "data", "pgdata", "pg_wal", "archive_status"))).toBe(true);
    expect(await readFile(join(root, "data", "pgdata", "base", "5", "1259"), "utf8")).toBe("catalog");
  });

  it("made by the build, starts a fresh data folder already migrated, and a restart keeps its data", async () => {
    const template = await usableTemplate(defaultTemplateDir(), resolveMigrationsDir());
    if (template === undefined) throw new Error("no up-to-date template: run `npm run build` first");
    const dataDir = await tempDir();

    const first = await startEmbeddedPostgres({ dataDir, template });
    expect(first.created).toBe("template");
    const sql = connectPostgres({ url: first.url, maxPoolSize: 1, embedded: true });
    const versions = await sql`select version from auth.schema_migrations order by version`;
    expect(versions.length).toBeGreaterThan(0);
    await sql`insert into auth.users (id, aud, role, email)
      values ('6f1c2f5e-0000-4000-8000-000000000002', 'authenticated', 'authenticated', 'copy@example.com')`;
    await sql.end();
    await first.stop();

    const second = await startEmbeddedPostgres({ dataDir, template });
    expect(second.created).toBe("existing");
    const reader = connectPostgres({ url: second.url, maxPoolSize: 1, embedded: true });
    expect((await reader`select email from auth.users`).map((r) => r.email)).toEqual(["copy@example.com"]);
    await reader.end();
    await second.stop();
  }, 60_000);
});
