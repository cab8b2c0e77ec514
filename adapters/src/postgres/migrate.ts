import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Sql } from "postgres";
import { applyFunctions, functionsDirOf, neededFunctions, renderFunctions } from "./migrate-functions.js";
import { MigrationError, renderMigrationText } from "./migration-text.js";

/** A schema name we can splice into SQL: lowercase, so quoting never changes its meaning. */
const NAMESPACE_PATTERN = /^[a-z_][a-z0-9_]{0,62}$/;
const FILE_PATTERN = /^(\d{4})_([a-z0-9_]+)\.sql$/;

export { MigrationError };

export interface Migration {
  /** The number, e.g. "0001": what schema_migrations records, so renaming a file never re-applies it. */
  version: string;
  /** File name without ".sql", e.g. "0001_initial". */
  name: string;
  path: string;
}

export interface MigrateOptions {
  namespace: string;
  /** The numbered migrations; its `functions/` folder holds the database functions. */
  migrationsDir: string;
  log?: (msg: string, fields?: object) => void;
}

/** Throws unless `namespace` matches ^[a-z_][a-z0-9_]{0,62}$. */
export function assertValidNamespace(namespace: string): void {
  if (!NAMESPACE_PATTERN.test(namespace)) {
    throw new MigrationError(
      `invalid namespace ${JSON.stringify(namespace)}: must match ${NAMESPACE_PATTERN}`,
    );
  }
}

/**
 * The migrations in `dir`, in order. Every `.sql` file must be named NNNN_name.sql and no number may
 * appear twice: a misnamed or repeated file is a packaging mistake that must stop the server rather than
 * silently skip a schema change. A number may be missing: numbers are reserved for changes made side
 * by side, and one may ship before a lower one; each is applied once, whenever it first appears
 * (`schema_migrations` holds every version applied, not a high-water mark), so each must stand alone.
 */
export async function listMigrations(dir: string): Promise<Migration[]> {
  const files = (await readdir(dir)).filter((f) => f.endsWith(".sql")).sort();
  const migrations: Migration[] = [];
  for (const file of files) {
    const match = FILE_PATTERN.exec(file);
    if (!match?.[1]) throw new MigrationError(`migration ${file}: name must match NNNN_name.sql (lowercase)`);
    migrations.push({ version: match[1], name: file.slice(0, -4), path: join(dir, file) });
  }
  migrations.forEach((m, i) => {
    const previous = migrations[i - 1];
    if (Number(m.version) >= 1 && (previous === undefined || Number(m.version) > Number(previous.version)))
      return;
    throw new MigrationError(`migration ${m.name}: duplicate migration number ${m.version}`);
  });
  return migrations;
}

/**
 * The advisory-lock key for migrating `namespace`: two namespaces on one database migrate independently,
 * two instances of one namespace never at the same time.
 */
export function migrationLockKey(namespace: string): bigint {
  return createHash("sha256").update(`authsvc:migrate:${namespace}`).digest().readBigInt64BE(0);
}

/** What {@link migrate} did: the migrations and the functions applied, in order. */
export interface MigrateResult {
  /** Names of the numbered migrations applied ([] when up to date). */
  applied: string[];
  /** Names of the functions (re)created ([] when every one was current). */
  functions: string[];
}

/**
 * Applies the pending migrations of `migrationsDir` to `namespace`, creating the schema and its
 * schema_migrations table when missing, then (re)creates each database function of its `functions/`
 * folder whose text changed since it was last applied (see applyFunctions). A migration that needs a
 * function to exist names it (see neededFunctions), and that one is created just before it.
 *
 * All pending files run in ONE transaction: a server starting on an old database sees either the whole
 * new schema or none of it, and a failing file leaves nothing behind (Postgres DDL is transactional).
 * The price: a file cannot use statements that refuse to run in a transaction block (create index
 * concurrently, vacuum) nor use an enum value added earlier in the same transaction; such a change must
 * go out in a later release, in its own file. Files must not contain begin/commit themselves.
 *
 * pg_advisory_xact_lock, taken first in the transaction, makes a second instance starting at the same
 * moment wait and then find nothing pending. A transaction-scoped lock needs no unlock on failure and
 * also works on the embedded server, where all connections share one PGlite backend.
 */
export async function migrate(sql: Sql, options: MigrateOptions): Promise<MigrateResult> {
  const { namespace, log } = options;
  assertValidNamespace(namespace);
  // Read and validate every file before touching the database.
  const migrations = await listMigrations(options.migrationsDir);
  const sources = await Promise.all(
    migrations.map(async (m) =>
      renderMigrationText(`migration ${m.name}`, await readFile(m.path, "utf8"), namespace),
    ),
  );
  const functions = await renderFunctions(functionsDirOf(options.migrationsDir), namespace);
  const needs = migrations.map((m, i) =>
    neededFunctions(`migration ${m.name}`, sources[i] as string, functions),
  );

  return sql.begin(async (tx) => {
    await tx`select pg_advisory_xact_lock(${migrationLockKey(namespace).toString()}::bigint)`;
    // Created under the lock: concurrent "create … if not exists" can still fail with a unique violation.
    await tx`create schema if not exists ${tx(namespace)}`;
    await tx`
      create table if not exists ${tx(namespace)}.schema_migrations (
        version varchar(255) primary key,
        applied_at timestamptz not null default now()
      )
    `;
    const rows = await tx<{ version: string }[]>`select version from ${tx(namespace)}.schema_migrations`;
    const done = new Set(rows.map((r) => r.version));
    const known = new Set(migrations.map((m) => m.version));
    const unknown = [...done].filter((v) => !known.has(v));
    if (unknown.length > 0) {
      // A newer release already migrated this database (e.g. during a rolling deploy): not our business.
      log?.("database has migrations this build does not know", { namespace, versions: unknown.sort() });
    }

    const names: string[] = [];
    const early: string[] = [];
    for (const [i, m] of migrations.entries()) {
      if (done.has(m.version)) continue;
      const needed = needs[i] ?? [];
      if (needed.length > 0) early.push(...(await applyFunctions(tx, { namespace, functions: needed, log })));
      const started = performance.now();
      try {
        // sql.unsafe runs the file through the simple query protocol, which accepts many statements.
        // Safe here: the text is our own migration file, and the only substitution is the namespace,
        // validated above and quoted; no user input ever reaches this call.
        await tx.unsafe(sources[i] as string);
      } catch (error) {
        throw new MigrationError(`migration ${m.name} failed: ${(error as Error).message}`, { cause: error });
      }
      await tx`insert into ${tx(namespace)}.schema_migrations (version) values (${m.version})`;
      log?.("applied migration", {
        namespace,
        migration: m.name,
        ms: Math.round(performance.now() - started),
      });
      names.push(m.name);
    }
    if (unknown.length > 0) {
      // The functions are the newer release's too: writing this build's texts would undo its changes.
      log?.("database functions left as the newer build made them", { namespace });
      return { applied: names, functions: [] };
    }
    const late = await applyFunctions(tx, { namespace, functions, log });
    return { applied: names, functions: [...early, ...late] };
  });
}

/**
 * The migrations, found from this module's own location: beside the adapters package's `dist/` when
 * installed from the package (`npm run pack` puts them there), else `<repo>/migrations` — three levels
 * up from adapters/src/postgres (tsx, vitest) and adapters/dist/postgres (compiled) alike.
 */
export function resolveMigrationsDir(): string {
  const candidates = ["../../migrations/", "../../../migrations/"].map((path) =>
    fileURLToPath(new URL(path, import.meta.url)),
  );
  const dir = candidates.find((candidate) => existsSync(candidate));
  if (dir === undefined)
    throw new MigrationError(`migrations directory not found at ${candidates.join(" or ")}`);
  return dir;
}
