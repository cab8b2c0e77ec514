import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from "node:fs";
import { chmod, mkdir, readdir } from "node:fs/promises";
import { join, resolve } from "node:path";

/**
 * The embedded database's data folder: who may read it, and who may run a database in it.
 *
 * PGlite writes its files with modes of its own (initdb's files 0666 whatever the umask), so another
 * local user could read every row (addresses, password hashes) from them, or write into them. The
 * data folder is made 0700, and the database's folder in it (pgdata) 0700 with every file 0600 when
 * the database starts and when it stops; the process's umask is narrowed so that what PGlite creates
 * in between is private too. The data folder's other files (the development secrets) are written
 * 0600 by their makers.
 *
 * Two servers on one folder would each run their own PostgreSQL on the same files and silently
 * diverge (and corrupt them): the folder is locked by a file holding the owner's process id.
 */

/** The lock file, inside the data folder. */
export const LOCK_FILE = "embedded-database.lock";

const PRIVATE = { dir: 0o700, file: 0o600 } as const;

/** Thrown when another live process holds the data folder. */
export class DataFolderInUseError extends Error {
  constructor(
    readonly dataDir: string,
    readonly pid: number,
    readonly lockFile: string,
  ) {
    super(
      `the embedded database's data folder ${dataDir} is in use by process ${pid}: one folder serves one server at a time (stop that one, or use another folder). If process ${pid} is not an authsvc, remove ${lockFile}`,
    );
    this.name = "DataFolderInUseError";
  }
}

/** Creates the folder (0700) or makes an existing one 0700. */
export async function privateFolder(dataDir: string): Promise<void> {
  await mkdir(dataDir, { recursive: true, mode: PRIVATE.dir });
  await chmod(dataDir, PRIVATE.dir);
}

/**
 * Narrows the process's umask to the owner: PGlite creates files (WAL segments, relations, its caches)
 * for as long as it runs, so the umask stays. A worker thread cannot change it; there the chmod at
 * start and stop still applies.
 */
export function ownerOnlyUmask(): void {
  try {
    process.umask(process.umask() | 0o077);
  } catch {
    // ERR_WORKER_UNSUPPORTED_OPERATION
  }
}

/**
 * Sets every folder under `root` (itself included) to `modes.dir` and every file to `modes.file`;
 * symbolic links are left alone (chmod would follow them out of the folder).
 */
export async function restrictModes(
  root: string,
  modes: { dir: number; file: number } = PRIVATE,
): Promise<void> {
  const entries = await readdir(root, { withFileTypes: true, recursive: true });
  await chmod(root, modes.dir);
  const next = entries.values();
  // A few in flight: a data folder has over a thousand files.
  const worker = async () => {
    for (const entry of next) {
      if (entry.isSymbolicLink()) continue;
      const path = join(entry.parentPath, entry.name);
      await chmod(path, entry.isDirectory() ? modes.dir : modes.file).catch(
        (error: NodeJS.ErrnoException) => {
          if (error.code !== "ENOENT") throw error; // removed meanwhile (a WAL segment recycled)
        },
      );
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
}

/** Whether a process with this id runs (one of another user counts: it answers EPERM). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

function readPid(path: string): number | undefined {
  try {
    const pid = Number.parseInt(readFileSync(path, "utf8").trim(), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Takes the folder's lock: creates the lock file exclusively, with this process's id. A lock whose
 * process no longer runs (killed, crashed) is stale and taken over. Returns the release, which removes
 * the file if it is still this process's; a process that exits without releasing leaves a stale lock.
 */
export function lockDataFolder(dataDir: string): () => void {
  const folder = resolve(dataDir);
  const path = join(folder, LOCK_FILE);
  for (let tries = 0; ; tries++) {
    try {
      const fd = openSync(path, "wx", PRIVATE.file);
      try {
        writeSync(fd, `${process.pid}\n`);
      } finally {
        closeSync(fd);
      }
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST" || tries > 2) throw error;
      const pid = readPid(path);
      // An unreadable or empty file: its writer died between creating and writing it, or is writing now.
      if (pid !== undefined && alive(pid)) throw new DataFolderInUseError(folder, pid, path);
      if (pid === undefined && tries === 0) continue; // read it once more before taking it over
      // Stale. Another start may be taking it over too: only one of us creates the new file.
      if (readPid(path) === pid) unlinkSync(path);
    }
  }
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    process.off("exit", release);
    if (readPid(path) === process.pid) {
      try {
        unlinkSync(path);
      } catch {
        // already gone
      }
    }
  };
  // process.exit() (a fatal database fault) runs no stop(); the lock goes with the process anyway.
  process.on("exit", release);
  return release;
}
