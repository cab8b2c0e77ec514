import { setFlagsFromString } from "node:v8";

/**
 * How far V8 lets the old generation grow past what survived the last full collection before the
 * next one: +50%. V8's own factor reaches 4× on a machine with plenty of memory. Under many
 * concurrent requests (1,000 keep-alive connections on GET /user) each request's objects outlive
 * a young-generation collection or two while it waits for a pooled database connection, so they
 * are promoted and die old; with 4× headroom that garbage took the process from 85 MB to 195–307 MB
 * before a full collection ran, at +50% to 139–170 MB. A full collection of this heap (25–40 MB live)
 * takes 20–40 ms; at 16 connections the cost was below what the benchmark could resolve
 * (docs/benchmarks.md, "1,000 connections").
 */
export const HEAP_GROWING_PERCENT = 50;

/** Applies the heap growth limit unless the command line already sets one (`node --heap-growing-percent=N`). */
export function limitHeapGrowth(execArgv: readonly string[] = process.execArgv): void {
  if (
    execArgv.some(
      (arg) => arg.startsWith("--heap-growing-percent") || arg.startsWith("--heap_growing_percent"),
    )
  )
    return;
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}
