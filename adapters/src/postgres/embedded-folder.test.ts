import { execFile } from "node:child_process";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import { DataFolderInUseError, LOCK_FILE, lockDataFolder } from "./embedded-folder.js";

const execFileAsync = promisify(execFile);

const dirs: string[] = [];
const releases: (() => void)[] = [];
afterEach(async () => {
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

const lockPid = (dir: string) => readFileSync(join(dir, LOCK_FILE), "utf8").trim();

describe("the embedded data folder's lock", () => {
  it("is taken, refused to another holder while held, and free again once released", async () => {
    const dir = await dataFolder();
    const release = lock(dir);
    expect(lockPid(dir)).toBe(String(process.pid));
    release();
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false);
    lock(dir);
    expect(lockPid(dir)).toBe(String(process.pid));
  });

  it("refuses a folder whose lock a live process holds", async () => {
    const dir = await dataFolder();
    writeFileSync(join(dir, LOCK_FILE), `${process.ppid}\n`);
    expect(() => lock(dir)).toThrow(DataFolderInUseError);
    expect(lockPid(dir)).toBe(String(process.ppid));
  });

  it("takes over a lock left by a process that no longer runs", async () => {
    const dir = await dataFolder();
    writeFileSync(join(dir, LOCK_FILE), `${deadPid()}\n`);
    lock(dir);
    expect(lockPid(dir)).toBe(String(process.pid));
  });

  it("takes over a lock holding this process's own id that this process does not hold (a container restarted after a kill: the same pid on every run)", async () => {
    const dir = await dataFolder();
    writeFileSync(join(dir, LOCK_FILE), `${process.pid}\n`);
    const release = lock(dir);
    expect(lockPid(dir)).toBe(String(process.pid));
    release();
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false);
  });

  it("refuses a second lock of a folder this process already holds", async () => {
    const dir = await dataFolder();
    lock(dir);
    expect(() => lock(dir)).toThrow(DataFolderInUseError);
    expect(lockPid(dir)).toBe(String(process.pid));
  });

  it("has one holder at a time when several starts find the same dead lock at once", async () => {
    const dir = await dataFolder();
    const path = join(dir, LOCK_FILE);
    const starts = 8;
    const rounds = 10;
    const slotMs = 400;
    const side = await dataFolder(); // the processes' meeting point, outside the data folder
    const journal = join(side, "holders");
    // Each start tries the lock at the beginning of every slot and holds it for half the slot,
    // journaling (appends: one write each) when it starts and stops holding it.
    const script = `
      import { appendFileSync, existsSync, readFileSync, writeFileSync } from "node:fs";
      import { lockDataFolder } from ${JSON.stringify(fileURLToPath(new URL("./embedded-folder.ts", import.meta.url)))};
      const side = ${JSON.stringify(side)};
      const sleep = new Int32Array(new SharedArrayBuffer(4));
      const until = (at) => { while (Date.now() < at) Atomics.wait(sleep, 0, 0, Math.max(0, at - Date.now() - 1)); };
      writeFileSync(side + "/ready-" + process.pid, "");
      while (!existsSync(side + "/go")) Atomics.wait(sleep, 0, 0, 5);
      const first = Number(readFileSync(side + "/go", "utf8"));
      for (let round = 0; round < ${rounds}; round++) {
        const at = first + round * ${slotMs};
        until(at);
        try {
          const release = lockDataFolder(${JSON.stringify(dir)});
          appendFileSync(${JSON.stringify(journal)}, "+" + process.pid + "\\n");
          until(at + ${slotMs / 2});
          appendFileSync(${JSON.stringify(journal)}, "-" + process.pid + "\\n");
          release();
        } catch (error) {
          if (error.name !== "DataFolderInUseError") throw error;
        }
      }`;
    const runs = Array.from({ length: starts }, () =>
      execFileAsync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script]),
    );
    while (readdirSync(side).filter((name) => name.startsWith("ready-")).length < starts) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const first = Date.now() + 200;
    writeFileSync(join(side, "go"), String(first));
    // Before each slot, once the last holder has released: a dead lock, a killed server's.
    for (let round = 0; round < rounds; round++) {
      const at = first + round * slotMs - slotMs / 4;
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, at - Date.now())));
      try {
        writeFileSync(path, `${deadPid()}\n`, { flag: "wx" });
      } catch {
        // still held (a slow holder): no dead lock this round
      }
    }
    await Promise.all(runs);
    const entries = readFileSync(journal, "utf8").trim().split("\n");
    // One holder at a time: every start of a hold is followed by its own end.
    const overlaps = entries.filter(
      (entry, i) => entry.startsWith("+") && entries[i + 1] !== `-${entry.slice(1)}`,
    );
    expect(overlaps).toEqual([]);
    expect(entries.length).toBeGreaterThanOrEqual(rounds); // the dead lock was taken over, round after round
    // No takeover guards are left behind.
    expect(readdirSync(dir).filter((name) => name !== LOCK_FILE)).toEqual([]);
  }, 60_000);
});
