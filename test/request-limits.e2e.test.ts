import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  type FreshNamespace,
  migratedNamespace,
  redisAnswers,
  TEST_REDIS_URL,
} from "@authsvc/adapters/testing";
import { productionServerEnv } from "@authsvc/http/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type DatabaseRoute,
  DIRECT_ROUTE,
  describeEachDatabaseRoute,
  type OpenRoute,
} from "./support/database-routes.js";
import { type ServerProcess, startServer } from "./support/server-process.js";

/**
 * Two server processes on one database (directly, and through PgBouncer in transaction mode; and,
 * when a Redis answers, on one Redis) allow a client the per-IP limit once between them, not once each.
 */
const cwd = mkdtempSync(join(tmpdir(), "authsvc-limits-"));
// As behind one load balancer: the client is the last X-Forwarded-For entry.
const LIMITED = {
  AUTHSVC_RATE_LIMIT_HEADER: "X-Forwarded-For",
  AUTHSVC_RATE_LIMIT_VERIFY: "30",
  AUTHSVC_API_TRUSTED_PROXY_HOPS: "1",
};

/** Statuses of `times` POST /verify from `ip`, alternating between the servers. */
async function verifyStatuses(servers: ServerProcess[], ip: string, times: number): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < times; i++) {
    const server = servers[i % servers.length] as ServerProcess;
    const res = await fetch(`${server.url}/verify`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-forwarded-for": ip },
      body: JSON.stringify({ type: "signup", token_hash: "nope" }),
    });
    statuses.push(res.status);
  }
  return statuses;
}

afterAll(() => rmSync(cwd, { recursive: true, force: true }));

/** Two servers on a new namespace, reaching the database by `route`, with `extra` in their environment. */
function twoInstances(route: DatabaseRoute, extra: () => Record<string, string>) {
  let ns: FreshNamespace;
  let opened: OpenRoute | undefined;
  let servers: ServerProcess[] = [];
  beforeAll(async () => {
    [ns, opened] = await Promise.all([migratedNamespace(), route.open()]);
    const env = { ...productionServerEnv(ns, { ...LIMITED, ...extra() }), ...opened.env };
    servers = await Promise.all([0, 1].map(() => startServer(env, { cwd })));
  });
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
    await opened?.close();
    await ns?.drop();
  });

  it("let 30 /verify from one client through between them, then refuse it on both", async () => {
    const ip = `198.51.100.${Math.floor(Math.random() * 250) + 1}`;
    const first = await verifyStatuses(servers, ip, 30);
    expect(first).not.toContain(429);
    expect(await verifyStatuses(servers, ip, 2)).toEqual([429, 429]);
    // Another client still has its whole budget.
    expect(await verifyStatuses(servers, "198.51.100.251", 2)).not.toContain(429);
  });
}

describeEachDatabaseRoute("per-IP limits of two instances counted in the database", (route) =>
  twoInstances(route, () => ({})),
);

const withRedis = await redisAnswers(TEST_REDIS_URL);
if (withRedis) {
  describe(`per-IP limits of two instances counted in Redis (${TEST_REDIS_URL})`, () =>
    twoInstances(DIRECT_ROUTE, () => ({ REDIS_URL: TEST_REDIS_URL })));
} else {
  console.warn(`two-instance request-limit test on Redis NOT RUN: no Redis answers at ${TEST_REDIS_URL}`);
}

describe("per-IP limits while their store is down", () => {
  let ns: FreshNamespace;
  let server: ServerProcess;
  beforeAll(async () => {
    ns = await migratedNamespace();
    server = await startServer(productionServerEnv(ns, { ...LIMITED, REDIS_URL: "redis://127.0.0.1:1" }), {
      cwd,
    });
  });
  afterAll(async () => {
    await server.stop();
    await ns.drop();
  });

  it("are counted by the instance alone: no 500, the limit still holds, one warning logged", async () => {
    const statuses = await verifyStatuses([server], "198.51.100.77", 31);
    expect(statuses.slice(0, 30)).not.toContain(429);
    expect(statuses.slice(0, 30).filter((s) => s >= 500)).toEqual([]);
    expect(statuses.at(-1)).toBe(429);
    const warnings = server
      .lines()
      .filter((l) => String(l.msg).startsWith("request-limit store unreachable"));
    expect(warnings).toHaveLength(1);
  });
});

describe("per-IP limits of a server no proxy stands in front of", () => {
  let ns: FreshNamespace;
  let server: ServerProcess;
  beforeAll(async () => {
    ns = await migratedNamespace();
    const { AUTHSVC_API_TRUSTED_PROXY_HOPS: _, ...direct } = LIMITED;
    server = await startServer(productionServerEnv(ns, direct), { cwd });
  });
  afterAll(async () => {
    await server.stop();
    await ns.drop();
  });

  it("count the connection's peer: ten chosen X-Forwarded-For values are one client, refused after 30", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 40; i++) {
      statuses.push(...(await verifyStatuses([server], `192.0.2.${i % 10}`, 1)));
    }
    expect(statuses.slice(0, 30)).not.toContain(429);
    expect(statuses.slice(30)).toEqual(Array(10).fill(429));
    // Said at start: behind a proxy this setting would count every client as the proxy.
    expect(server.lines().some((l) => String(l.msg).includes("AUTHSVC_API_TRUSTED_PROXY_HOPS is 0"))).toBe(
      true,
    );
  });
});
