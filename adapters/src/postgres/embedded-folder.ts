import {
  closeSync,
  fstatSync,
  openSync,
  readFileSync,
  type Stats,
  statSync,
  unlinkSync,
  writeSync,
} from "node:fs";
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

/** Which file a name stands for: a file removed and made again under the same name is another one. */
interface FileIdentity {
  dev: number;
  ino: number;
  /** Also when it was written: a new file can get the inode number of a removed one. */
  mtimeMs: number;
}

function identity(stats: Stats): FileIdentity {
  return { dev: stats.dev, ino: stats.ino, mtimeMs: stats.mtimeMs };
}

function sameFile(a: FileIdentity | undefined, b: FileIdentity | undefined): boolean {
  return a !== undefined && b !== undefined && a.dev === b.dev && a.ino === b.ino && a.mtimeMs === b.mtimeMs;
}

function identityOf(path: string): FileIdentity | undefined {
  try {
    return identity(statSync(path));
  } catch {
    return undefined;
  }
}

/** The lock file's process id and which file it was read from (undefined pid: empty or unreadable). */
function readLock(path: string): { pid: number | undefined; file: FileIdentity } | undefined {
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch {
    return undefined; // gone meanwhile
  }
  try {
    const file = identity(fstatSync(fd));
    const pid = Number.parseInt(readFileSync(fd, "utf8").trim(), 10);
    return { pid: Number.isInteger(pid) && pid > 0 ? pid : undefined, file };
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/**
 * The lock files this process holds. A lock file names its holder by process id, and in a container
 * the server has the same id on every run (often 1): a lock with our own id that is not in here is
 * the one a killed earlier run left, not ours.
 */
const held = new Set<string>();

/**
 * How long a takeover, or the write of a just-created lock file, may take before it counts as
 * abandoned (its process died midway). Both take microseconds.
 */
const ABANDONED_MS = 5_000;

const pause = new Int32Array(new SharedArrayBuffer(4));
/** Lets another start finish what it is doing with the lock (this code is synchronous). */
function waitBriefly(): void {
  Atomics.wait(pause, 0, 0, 2);
}

/**
 * Removes the stale lock `stale` unless another start removes it. Two starts that found the same dead
 * lock both get here, and removing by name after a check could remove the fresh lock the other has
 * made in between. So the removal is claimed first: a guard file named after the stale lock's
 * identity, created exclusively, which one start gets; it removes the lock only if the lock is still
 * that file (nobody else can remove it meanwhile), then drops the guard. A start that finds the guard
 * comes back and finds the lock gone, or a fresh one. A guard older than {@link ABANDONED_MS} was left
 * by a start that died holding it: the next one (`-2`, `-3`, …) is claimed instead. Returns false
 * while another start is at it.
 */
function removeStale(path: string, stale: FileIdentity): boolean {
  const guardOf = (generation: number) =>
    `${path}.takeover-${stale.dev}-${stale.ino}-${Math.round(stale.mtimeMs * 1000)}-${generation}`;
  let generation = 1;
  for (; ; generation++) {
    try {
      closeSync(openSync(guardOf(generation), "wx", PRIVATE.file));
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const guard = identityOf(guardOf(generation));
      if (guard === undefined) return false; // its holder is done: the lock is another now
      if (Date.now() - guard.mtimeMs < ABANDONED_MS) return false;
    }
  }
  try {
    if (sameFile(identityOf(path), stale)) unlinkSync(path);
  } finally {
    for (let g = generation; g >= 1; g--) {
      try {
        unlinkSync(guardOf(g));
      } catch {
        // an abandoned one another start has dropped already
      }
    }
  }
  return true;
}

/**
 * Takes the folder's lock: creates the lock file exclusively, with this process's id. A lock whose
 * process no longer runs (killed, crashed), or that names this process without this process holding
 * it (an earlier run with the same id), is stale and taken over. Returns the release, which removes
 * the file if it is still the one this process made; a process that exits without releasing leaves a
 * stale lock.
 */
export function lockDataFolder(dataDir: string): () => void {
  const folder = resolve(dataDir);
  const path = join(folder, LOCK_FILE);
  if (held.has(path)) throw new DataFolderInUseError(folder, process.pid, path);
  let mine: FileIdentity;
  // Past this, what holds the lock is neither alive nor abandoned: something else (a lock file that
  // cannot be removed); the failure says so.
  const deadline = Date.now() + 2 * ABANDONED_MS;
  for (;;) {
    try {
      const fd = openSync(path, "wx", PRIVATE.file);
      try {
        writeSync(fd, `${process.pid}\n`);
        mine = identity(fstatSync(fd));
      } finally {
        closeSync(fd);
      }
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST" || Date.now() > deadline) throw error;
      const found = readLock(path);
      if (found === undefined) continue; // removed meanwhile: create it again
      const { pid, file } = found;
      if (pid !== undefined && pid !== process.pid && alive(pid))
        throw new DataFolderInUseError(folder, pid, path);
      // An empty or unreadable file: its writer is writing it now, or died between creating and writing it.
      const abandoned = pid !== undefined || Date.now() - file.mtimeMs >= ABANDONED_MS;
      if (!abandoned || !removeStale(path, file)) waitBriefly();
    }
  }
  held.add(path);
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    held.delete(path);
    process.off("exit", release);
    if (sameFile(identityOf(path), mine)) {
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
