import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { copyFile, mkdir, readdir, readFile, rename, rm, rmdir, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { restrictModes } from "./embedded-folder.js";
import { FUNCTIONS_FOLDER } from "./migrate-functions.js";

/**
 * A ready-made embedded data folder: PGlite's initdb output with the migrations applied (namespace
 * `auth`), made once at build time. PGlite's initdb alone costs several seconds of CPU (a second
 * PostgreSQL instance in WebAssembly, bootstrapping every catalog); copying the template instead makes
 * a first start on a fresh data folder cost about what a restart costs.
 *
 * The template is only used when its stamp matches this build: the PGlite version (the on-disk format)
 * and the text of every migration and database function. A stale or missing template is ignored and the embedded database is
 * created the slow way, so the template can never hand out a schema the migrations would not produce.
 */
export const TEMPLATE_NAMESPACE = "auth";

/** The file beside a template's pgdata listing every folder of it, empty ones included. */
const FOLDERS_FILE = "folders";

/**
 * What the template was made from: PGlite's version, every migration file and every function file
 * (`functions/`), by name and content.
 */
export async function templateStamp(migrationsDir: string): Promise<string> {
  const hash = createHash("sha256");
  hash.update(`template format 2\0pglite ${pgliteVersion()}\0namespace ${TEMPLATE_NAMESPACE}\0`);
  const functionsDir = join(migrationsDir, FUNCTIONS_FOLDER);
  for (const [dir, label] of [
    [migrationsDir, ""],
    [functionsDir, `${FUNCTIONS_FOLDER}/`],
  ] as const) {
    // A missing functions folder makes no template worth keeping, but migrate reports it, not the stamp.
    const files = existsSync(dir) ? (await readdir(dir)).filter((f) => f.endsWith(".sql")).sort() : [];
    for (const file of files) {
      hash.update(`${label}${file}\0`);
      hash.update(await readFile(join(dir, file)));
      hash.update("\0");
    }
  }
  return hash.digest("hex");
}

function pgliteVersion(): string {
  // The package exports no ./package.json; its entry is dist/index.*, one level below the manifest.
  const entry = createRequire(import.meta.url).resolve("@electric-sql/pglite");
  const manifest = join(dirname(entry), "..", "package.json");
  return (JSON.parse(readFileSync(manifest, "utf8")) as { version: string }).version;
}

/**
 * `<repo>/adapters/dist/embedded-template`, found from this module's location (adapters/src/postgres
 * from source, adapters/dist/postgres compiled; both three levels below the repo).
 */
export function defaultTemplateDir(): string {
  return fileURLToPath(new URL("../../../adapters/dist/embedded-template/", import.meta.url));
}

/** The template's pgdata folder when its stamp matches `migrationsDir`, otherwise undefined. */
export async function usableTemplate(
  templateDir: string,
  migrationsDir: string,
): Promise<string | undefined> {
  const pgdata = join(templateDir, "pgdata");
  const stampFile = join(templateDir, "stamp");
  if (!existsSync(stampFile) || !existsSync(join(pgdata, "PG_VERSION"))) return undefined;
  // A template made before its folders were listed cannot be packed: it is made again.
  if (!existsSync(join(templateDir, FOLDERS_FILE))) return undefined;
  const stamp = (await readFile(stampFile, "utf8")).trim();
  return stamp === (await templateStamp(migrationsDir)) ? pgdata : undefined;
}

/**
 * Copies the template into `pgdata`, which must be absent or an empty folder. The copy goes to a sibling
 * folder first and is renamed into place, so an interrupted copy never looks like a database.
 */
export async function copyTemplate(templatePgdata: string, pgdata: string): Promise<void> {
  await rmdir(pgdata).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== "ENOENT") throw error; // a folder that is not empty is never removed
  });
  const partial = `${pgdata}.partial`;
  await rm(partial, { recursive: true, force: true });
  await copyTree(templatePgdata, partial);
  // A packed template has lost its empty folders (npm pack keeps files only); PostgreSQL needs them.
  for (const folder of await templateFolders(templatePgdata))
    await mkdir(join(partial, folder), { recursive: true });
  await rename(partial, pgdata);
}

async function templateFolders(templatePgdata: string): Promise<string[]> {
  const listed = await readFile(join(dirname(templatePgdata), FOLDERS_FILE), "utf8").catch(() => "");
  // Each line a path relative to pgdata; anything climbing out of it is not the template's.
  return listed.split("\n").filter((line) => line !== "" && !line.split("/").includes(".."));
}

async function listFolders(pgdata: string): Promise<string> {
  const entries = await readdir(pgdata, { withFileTypes: true, recursive: true });
  const folders = entries
    .filter((entry) => entry.isDirectory())
    .map((entry) => relative(pgdata, join(entry.parentPath, entry.name)))
    .sort();
  return folders.map((folder) => `${folder}\n`).join("");
}

/**
 * Copies a folder of folders and regular files. Node's fs.cp stats every entry several times from
 * JavaScript; a pgdata folder has about a thousand files, so this plain walk costs a fraction of it.
 */
async function copyTree(from: string, to: string): Promise<void> {
  const entries = await readdir(from, { withFileTypes: true, recursive: true });
  await mkdir(to, { recursive: true });
  for (const entry of entries) {
    if (entry.isDirectory())
      await mkdir(join(to, relative(from, join(entry.parentPath, entry.name))), { recursive: true });
  }
  const files = entries
    .filter((entry) => entry.isFile())
    .map((entry) => relative(from, join(entry.parentPath, entry.name)));
  // A few copies in flight keep the disk busy without opening a thousand files at once.
  const next = files.values();
  const worker = async () => {
    for (const file of next) await copyFile(join(from, file), join(to, file));
  };
  await Promise.all(Array.from({ length: 8 }, worker));
}

/**
 * Makes (or remakes) the template in `templateDir` unless it is already up to date; returns whether
 * it did. `build(dataDir)` must create a database in `<dataDir>/pgdata` (the layout of
 * startEmbeddedPostgres) and migrate it into {@link TEMPLATE_NAMESPACE}, then close it.
 */
export async function prepareTemplate(
  templateDir: string,
  migrationsDir: string,
  build: (dataDir: string) => Promise<void>,
): Promise<boolean> {
  if (await usableTemplate(templateDir, migrationsDir)) return false;
  const stamp = await templateStamp(migrationsDir);
  const work = `${templateDir.replace(/\/+$/, "")}.partial-${process.pid}`;
  await rm(work, { recursive: true, force: true });
  await mkdir(work, { recursive: true });
  try {
    await build(work);
    await writeFile(join(work, FOLDERS_FILE), await listFolders(join(work, "pgdata")));
    await writeFile(join(work, "stamp"), `${stamp}\n`);
    // Readable by whoever runs the server (it holds no secret, only the schema), writable by no one
    // else: a file changed here would be in every data folder made from it.
    await restrictModes(work, { dir: 0o755, file: 0o644 });
    await rm(templateDir, { recursive: true, force: true });
    await rename(work, templateDir).catch(async (error: unknown) => {
      // Two builds at once: the other one's template, made from the same files, is just as good.
      if (!(await usableTemplate(templateDir, migrationsDir))) throw error;
    });
  } finally {
    await rm(work, { recursive: true, force: true });
  }
  return true;
}
