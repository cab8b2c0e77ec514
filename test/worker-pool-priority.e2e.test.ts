import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type FreshNamespace, freshNamespace } from "@authsvc/adapters/testing";
import { productionServerEnv } from "@authsvc/http/testing";
import { afterAll, describe, expect, it } from "vitest";
import { type ServerProcess, startServer } from "./support/server-process.js";

const servers: ServerProcess[] = [];
const namespaces: FreshNamespace[] = [];
const dirs: string[] = [];

afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  await Promise.all(namespaces.map((ns) => ns.drop()));
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** The nice value of each thread of process `pid` (Linux /proc; field 19 of a task's stat). */
function threadNiceValues(pid: number): Map<number, number> {
  const nice = new Map<number, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const fields = readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
      nice.set(Number(tid), Number(fields[16]));
    } catch {
      // The thread ended meanwhile.
    }
  }
  return nice;
}

async function lowered(pid: number, expected: number): Promise<Map<number, number>> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const nice = threadNiceValues(pid);
    const count = [...nice.values()].filter((n) => n > 0).length;
    if (count >= expected || Date.now() > deadline) return nice;
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function start(extra: Record<string, string> = {}): Promise<ServerProcess> {
  const ns = await freshNamespace();
  namespaces.push(ns);
  const cwd = mkdtempSync(join(tmpdir(), "authsvc-e2e-"));
  dirs.push(cwd);
  const server = await startServer(productionServerEnv(ns, extra), { cwd });
  servers.push(server);
  return server;
}

describe.runIf(process.platform === "linux")("password hashing yields to the event loop", () => {
  it("runs libuv's worker threads (argon2id) below the event loop's priority, and only those", async () => {
    const server = await start();
    const nice = await lowered(server.pid, 4);
    // The default pool: four threads lowered, all to one nice value; the event loop and V8's own
    // threads stay at 0.
    const lowered4 = [...nice.values()].filter((n) => n > 0);
    expect(lowered4).toHaveLength(4);
    expect(new Set(lowered4).size).toBe(1);
    expect(nice.get(server.pid)).toBe(0);
    expect([...nice.values()].filter((n) => n < 0)).toEqual([]);
    // A sign-up, which hashes on those threads, still works.
    const res = await fetch(`${server.url}/signup`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "yields@example.com", password: "a-long-enough-password" }),
    });
    expect(res.status).toBe(200);
  });

  it("finds a pool of another size (UV_THREADPOOL_SIZE)", async () => {
    const server = await start({ UV_THREADPOOL_SIZE: "2" });
    const nice = await lowered(server.pid, 2);
    expect([...nice.values()].filter((n) => n > 0)).toHaveLength(2);
    expect(nice.get(server.pid)).toBe(0);
  });
});
