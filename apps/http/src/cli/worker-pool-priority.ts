import { pbkdf2 } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { setPriority } from "node:os";

/** The nice value given to libuv's worker threads: below the event loop's (0), above nothing else. */
export const WORKER_POOL_NICE = 8;

/** CPU time (clock ticks) each thread of this process has used so far, by thread id. */
function threadCpuTicks(): Map<number, number> {
  const ticks = new Map<number, number>();
  for (const tid of readdirSync("/proc/self/task")) {
    try {
      // After the command name (which may hold spaces): utime and stime are the 12th and 13th fields.
      const fields = readFileSync(`/proc/self/task/${tid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
      ticks.set(Number(tid), Number(fields[11]) + Number(fields[12]));
    } catch {
      // The thread ended meanwhile.
    }
  }
  return ticks;
}

/**
 * Each worker's share of the probe is ~70 ms of CPU (250,000 rounds of PBKDF2-SHA256); a thread that
 * used less than 40 ms meanwhile did something else (V8's own threads, at most a tick or two).
 */
const MIN_BUSY_TICKS = 4;
/** Probes at most this many times until every worker has been found. */
const PROBE_ROUNDS = 4;

const busyWork = () =>
  new Promise<void>((resolve) => pbkdf2("worker", "pool", 250_000, 32, "sha256", () => resolve()));

/**
 * Lowers the scheduling priority of libuv's worker threads, where password hashing (argon2id) runs,
 * below the event loop's. Hashing is the heaviest work the server does: under a burst of sign-ins the
 * pool's threads (4 by default, `UV_THREADPOOL_SIZE`) and the event loop compete for the same cores,
 * and with equal priorities the loop — which serves every other request — gets a fifth of a core.
 * With the workers at nice 8 (CFS gives the loop 60% of a core against all four) they still use every
 * idle cycle, but the loop goes first.
 *
 * Node names none of its threads, and the pool exists before any of our code runs, so the pool's are
 * found by what they do: each is handed a key derivation at once, and the threads that used CPU
 * meanwhile are the pool's (run after the server listens; a few hundred ms of the pool's time).
 * Linux only (thread ids and `/proc`); a no-op elsewhere. Answers how many threads were lowered.
 */
export async function lowerWorkerPoolPriority(nice = WORKER_POOL_NICE): Promise<number> {
  if (process.platform !== "linux") return 0;
  const size = Math.max(1, Math.min(1024, Number(process.env.UV_THREADPOOL_SIZE) || 4));
  // On a busy machine a worker may not wake before another has finished its first derivation and
  // taken a second: that round misses it. Another round finds it.
  const lowered = new Set<number>();
  for (let round = 0; round < PROBE_ROUNDS && lowered.size < size; round++) {
    const before = threadCpuTicks();
    await Promise.all(Array.from({ length: size }, busyWork));
    const used = [...threadCpuTicks()]
      .filter(([tid]) => tid !== process.pid)
      .map(([tid, ticks]) => [tid, ticks - (before.get(tid) ?? ticks)] as const)
      .filter(([, delta]) => delta >= MIN_BUSY_TICKS)
      .sort((a, b) => b[1] - a[1])
      .slice(0, size);
    for (const [tid] of used) {
      if (lowered.has(tid)) continue;
      try {
        setPriority(tid, nice);
        lowered.add(tid);
      } catch {
        // Not permitted or gone: the thread keeps its priority.
      }
    }
  }
  return lowered.size;
}
