/**
 * Preloaded into a server by the bench (`node --import ./bench/memory-probe.mjs`): on SIGUSR2 it
 * writes the process's memory as JSON to the file named by BENCH_MEMORY_PROBE — RSS, the V8 heap
 * (used, total, per space), external and array buffers — after a full collection when
 * BENCH_MEMORY_PROBE_GC is set (with `--expose-gc`), so that idle figures are of what stays alive.
 */
import { writeFileSync } from "node:fs";
import v8 from "node:v8";

const out = process.env.BENCH_MEMORY_PROBE;
if (out) {
  process.on("SIGUSR2", () => {
    if (process.env.BENCH_MEMORY_PROBE_GC && typeof globalThis.gc === "function") globalThis.gc();
    const memory = process.memoryUsage();
    const heap = v8.getHeapStatistics();
    // Per space: [bytes in use, bytes committed].
    const spaces = Object.fromEntries(
      v8
        .getHeapSpaceStatistics()
        .filter((s) => s.space_size > 0)
        .map((s) => [s.space_name, [s.space_used_size, s.space_size]]),
    );
    writeFileSync(out, JSON.stringify({ ...memory, mallocedMemory: heap.malloced_memory, spaces }));
  });
}
