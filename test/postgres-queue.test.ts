import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { getHeapStatistics, setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";

/**
 * postgres.js 3.4.9's request queue only compacted when it drained completely. Under sustained load
 * a busy pool's queue never drains, so its array grew without bound and every remove() scanned it
 * all. patches/postgres+3.4.9.patch compacts it while busy; this checks
 * the queue actually loaded, in both builds Node may load (ESM `src/`, CommonJS `cjs/src/`).
 */
interface Queue<T> {
  readonly length: number;
  push(x: T): T;
  shift(): T | undefined;
  remove(x: T): T | null;
}
type QueueFactory = <T>(initial?: T[]) => Queue<T>;

const require = createRequire(import.meta.url);
const cjsDir = dirname(require.resolve("postgres")); // node_modules/postgres/cjs/src
const builds: Record<string, QueueFactory> = {
  commonjs: require(join(cjsDir, "queue.js")) as QueueFactory,
  esm: ((await import(pathToFileURL(join(cjsDir, "../../src/queue.js")).href)) as { default: QueueFactory })
    .default,
};

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

function heapAfterGc(): number {
  gc();
  gc();
  return getHeapStatistics().used_heap_size;
}

describe.each(Object.entries(builds))("postgres.js queue (%s build)", (_, Queue) => {
  it("keeps FIFO order and removes from the middle", () => {
    const q = Queue<number>([1, 2]);
    q.push(3);
    q.push(4);
    expect(q.remove(3)).toBe(3);
    expect(q.remove(9)).toBeNull();
    expect([q.shift(), q.shift(), q.shift(), q.length]).toEqual([1, 2, 4, 0]);
    expect(q.shift()).toBeUndefined();
    q.push(5);
    expect([q.length, q.shift(), q.length]).toEqual([1, 5, 0]);
  });

  it("stays bounded while it never drains", () => {
    const q = Queue<object>();
    q.push({}); // one item always waiting: the queue never runs empty
    const before = heapAfterGc();
    for (let i = 0; i < 2_000_000; i++) {
      q.push({});
      q.shift();
      if (i % 100_000 === 0) {
        const cancelled = q.push({}); // a query given up before it ran
        expect(q.remove(cancelled)).toBe(cancelled);
      }
    }
    const grown = heapAfterGc() - before;
    expect(q.length).toBeGreaterThan(0);
    // The stock queue keeps a slot per item ever pushed: about 8 MB here. A compacting one, ~nothing.
    expect(grown).toBeLessThan(1_000_000);
  });
});
