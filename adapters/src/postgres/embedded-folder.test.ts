import type * as fs from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";

/**
 * Runs before the lock file is removed or moved aside by a takeover: a test puts another start's
 * move there (the moment two starts that found the same dead lock interleave).
 */
let beforeLockMove: ((path: string) => void) | undefined;

vi.mock("node:fs", async (importOriginal) => {
  const actual = await importOriginal<typeof import("node:fs")>();
  const intercept = (path: fs.PathLike) => {
    const hook = beforeLockMove;
    if (hook && String(path).endsWith("embedded-database.lock")) {
      beforeLockMove = undefined;
      hook(String(path));
    }
  };
  const unlinkSync: typeof actual.unlinkSync = (path) => {
    intercept(path);
    actual.unlinkSync(path);
  };
  const renameSync: typeof actual.renameSync = (from, to) => {
    intercept(from);
    actual.renameSync(from, to);
  };
  return { ...actual, default: { ...actual, unlinkSync, renameSync }, unlinkSync, renameSync };
});

const { DataFolderInUseError, LOCK_FILE, lockDataFolder } = await import("./embedded-folder.js");
const real = await vi.importActual<typeof import("node:fs")>("node:fs");

const dirs: string[] = [];
const releases: (() => void)[] = [];
afterEach(async () => {
  beforeLockMove = undefined;
  for (const release of releases.splice(0)) release();
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

async function dataFolder(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "authsvc-lock-"));
  dirs.push(dir);
  return dir;
}

function lock(dir: string): () => void {
  const release = lockDataFolder(dir);
  releases.push(release);
  return release;
}

/** A process id no process has (a killed server's). */
function deadPid(): number {
  for (let pid = 4_000_000; ; pid--) {
    try {
      process.kill(pid, 0);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ESRCH") return pid;
    }
  }
}

const lockPid = (dir: string) => real.readFileSync(join(dir, LOCK_FILE), "utf8").trim();

describe("the embedded data folder's lock", () => {
  it("is taken, refused to another holder while held, and free again once released", async () => {
    const dir = await dataFolder();
    const release = lock(dir);
    expect(lockPid(dir)).toBe(String(process.pid));
    release();
    expect(real.existsSync(join(dir, LOCK_FILE))).toBe(false);
    lock(dir);
    expect(lockPid(dir)).toBe(String(process.pid));
  });

  it("refuses a folder whose lock a live process holds", async () => {
    const dir = await dataFolder();
    real.writeFileSync(join(dir, LOCK_FILE), `${process.ppid}\n`);
    expect(() => lock(dir)).toThrow(DataFolderInUseError);
    expect(lockPid(dir)).toBe(String(process.ppid));
  });

  it("takes over a lock left by a process that no longer runs", async () => {
    const dir = await dataFolder();
    real.writeFileSync(join(dir, LOCK_FILE), `${deadPid()}\n`);
    lock(dir);
    expect(lockPid(dir)).toBe(String(process.pid));
  });

  it("takes over a lock holding this process's own id that this process does not hold (a container restarted after a kill: the same pid on every run)", async () => {
    const dir = await dataFolder();
    real.writeFileSync(join(dir, LOCK_FILE), `${process.pid}\n`);
    const release = lock(dir);
    expect(lockPid(dir)).toBe(String(process.pid));
    release();
    expect(real.existsSync(join(dir, LOCK_FILE))).toBe(false);
  });

  it("refuses a second lock of a folder this process already holds", async () => {
    const dir = await dataFolder();
    lock(dir);
    expect(() => lock(dir)).toThrow(DataFolderInUseError);
    expect(lockPid(dir)).toBe(String(process.pid));
  });

  it("leaves alone the fresh lock of another start that took over the same dead lock first", async () => {
    const dir = await dataFolder();
    const path = join(dir, LOCK_FILE);
    real.writeFileSync(path, `${deadPid()}\n`);
    // Between this start's look at the dead lock and its move of it, another start (a live process:
    // our parent) takes it over: removes the dead lock and creates its own.
    beforeLockMove = (lockPath) => {
      real.unlinkSync(lockPath);
      real.writeFileSync(lockPath, `${process.ppid}\n`, { flag: "wx" });
    };
    expect(() => lock(dir)).toThrow(DataFolderInUseError);
    expect(lockPid(dir)).toBe(String(process.ppid));
    // No moved-aside copies are left behind.
    expect(real.readdirSync(dir)).toEqual([LOCK_FILE]);
  });
});
