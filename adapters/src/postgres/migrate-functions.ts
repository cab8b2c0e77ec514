import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import type { TransactionSql } from "postgres";
import { MigrationError, renderMigrationText } from "./migration-text.js";

/** The folder of a migrations directory that holds the database functions, one file each. */
export const FUNCTIONS_FOLDER = "functions";
const FILE_PATTERN = /^([a-z_][a-z0-9_]{0,62})\.sql$/;
const ANY_FUNCTION = /\bcreate\s+(?:or\s+replace\s+)?function\b/gi;

/**
 * A database function's current text: `migrations/functions/<name>.sql`, one `create or replace function`
 * of `{{namespace}}.<name>` (and statements about that function, e.g. revoking its execution).
 */
export interface DatabaseFunction {
  /** The function's name, which is the file's name without ".sql". */
  name: string;
  path: string;
}

/** A function file rendered for one namespace, with the checksum that namespace records for it. */
export interface RenderedFunction extends DatabaseFunction {
  source: string;
  checksum: string;
}

/** `<migrationsDir>/functions`. */
export function functionsDirOf(migrationsDir: string): string {
  return join(migrationsDir, FUNCTIONS_FOLDER);
}

/**
 * The function files of `dir`, by name. The folder must exist: a build without it is a packaging
 * mistake, and the functions it should hold would silently keep an older text.
 */
export async function listFunctions(dir: string): Promise<DatabaseFunction[]> {
  if (!existsSync(dir)) throw new MigrationError(`functions directory not found at ${dir}`);
  const files = (await readdir(dir)).filter((f) => f.endsWith(".sql")).sort();
  return files.map((file) => {
    const match = FILE_PATTERN.exec(file);
    if (!match?.[1]) throw new MigrationError(`function ${file}: name must match name.sql (lowercase)`);
    return { name: match[1], path: join(dir, file) };
  });
}

/**
 * Reads, checks and renders every function file for `namespace`; throws on the first bad one. Each file
 * must define exactly the function it is named for, with `create or replace`, so that applying it again
 * replaces the function instead of failing or adding an overload under another name.
 */
export async function renderFunctions(dir: string, namespace: string): Promise<RenderedFunction[]> {
  return Promise.all(
    (await listFunctions(dir)).map(async (fn) => {
      const text = await readFile(fn.path, "utf8");
      assertDefinesOnly(fn, text);
      const source = renderMigrationText(`function ${fn.name}`, text, namespace);
      return { ...fn, source, checksum: createHash("sha256").update(source).digest("hex") };
    }),
  );
}

function assertDefinesOnly(fn: DatabaseFunction, text: string): void {
  const own = new RegExp(
    `\\bcreate\\s+or\\s+replace\\s+function\\s+\\{\\{namespace\\}\\}\\.${fn.name}\\s*\\(`,
    "i",
  );
  if (!own.test(text)) {
    throw new MigrationError(
      `function ${fn.name}: must contain "create or replace function {{namespace}}.${fn.name}("`,
    );
  }
  const count = text.match(ANY_FUNCTION)?.length ?? 0;
  if (count > 1) throw new MigrationError(`function ${fn.name}: defines ${count} functions, one a file`);
}

const NEEDS_LINE = /^--\s*needs functions:(.*)$/gm;

/**
 * The functions a migration names in a `-- needs functions: a, b` line: those it calls or attaches (a
 * trigger on a new function), which the migrator creates from their files just before the migration,
 * since the functions otherwise come after every migration. Throws for a name with no file.
 */
export function neededFunctions(
  label: string,
  text: string,
  functions: readonly RenderedFunction[],
): RenderedFunction[] {
  const names = [...text.matchAll(NEEDS_LINE)].flatMap((m) => (m[1] ?? "").split(/[\s,]+/).filter(Boolean));
  return names.map((name) => {
    const fn = functions.find((f) => f.name === name);
    if (!fn) throw new MigrationError(`${label}: needs function ${name}, which has no file in functions/`);
    return fn;
  });
}

export interface ApplyFunctionsOptions {
  namespace: string;
  functions: readonly RenderedFunction[];
  log?: (msg: string, fields?: object) => void;
}

/**
 * Inside the migration's transaction, after the numbered migrations and under the same advisory lock:
 * runs each function file whose text the namespace has not had yet, or whose function it no longer
 * has (a migration dropped it, e.g. to change its arguments), and appends the text's checksum to
 * `schema_functions`. Returns the names applied, in order ([] when all are current).
 *
 * Forward only, as the numbered migrations: a text the namespace had before and has since replaced is
 * an older build's (an instance of the previous release restarting during a rolling deploy), and is
 * not written back over the newer one. To return to an earlier text, change it (a comment saying why).
 * An unchanged file is not run again, so a start with nothing changed rewrites no catalog row.
 */
export async function applyFunctions(tx: TransactionSql, options: ApplyFunctionsOptions): Promise<string[]> {
  const { namespace, log } = options;
  const ns = tx(namespace);
  await tx`
    create table if not exists ${ns}.schema_functions (
      id bigint generated always as identity primary key,
      name varchar(255) not null,
      checksum varchar(64) not null,
      applied_at timestamptz not null default now()
    )
  `;
  const history = await functionHistory(tx, namespace);
  const present = new Set(
    (
      await tx<{ name: string }[]>`
        select p.proname as name
        from pg_catalog.pg_proc p
        join pg_catalog.pg_namespace n on n.oid = p.pronamespace
        where n.nspname = ${namespace}
      `
    ).map((r) => r.name),
  );

  const applied: string[] = [];
  for (const fn of options.functions) {
    const had = history.get(fn.name);
    if (present.has(fn.name) && had?.current === fn.checksum) continue;
    if (present.has(fn.name) && had?.earlier.has(fn.checksum)) {
      log?.("database function left as a newer build made it", { namespace, function: fn.name });
      continue;
    }
    const started = performance.now();
    try {
      // As for migrations: our own file, the namespace validated and quoted, no user input.
      await tx.unsafe(fn.source);
    } catch (error) {
      throw new MigrationError(`function ${fn.name} failed: ${(error as Error).message}`, { cause: error });
    }
    await tx`insert into ${ns}.schema_functions (name, checksum) values (${fn.name}, ${fn.checksum})`;
    log?.("applied function", { namespace, function: fn.name, ms: Math.round(performance.now() - started) });
    applied.push(fn.name);
  }
  return applied;
}

/** Per function: the checksum applied last, and those applied before it. */
async function functionHistory(
  tx: TransactionSql,
  namespace: string,
): Promise<Map<string, { current: string; earlier: Set<string> }>> {
  const rows = await tx<{ name: string; checksum: string }[]>`
    select name, checksum from ${tx(namespace)}.schema_functions order by id
  `;
  const history = new Map<string, { current: string; earlier: Set<string> }>();
  for (const { name, checksum } of rows) {
    const had = history.get(name);
    if (had) {
      had.earlier.add(had.current);
      had.earlier.delete(checksum);
      had.current = checksum;
    } else history.set(name, { current: checksum, earlier: new Set() });
  }
  return history;
}
