import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type FreshNamespace, freshNamespace } from "@authsvc/adapters/testing";
import { productionServerEnv } from "@authsvc/http/testing";
import type { ReservedSql } from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ServerProcess, startServer } from "./support/server-process.js";

/**
 * The bounded waiting line in front of the app, on the built server: requests held up inside (their
 * database reads wait for a table lock the test holds) take the slots, a few wait, and the rest are
 * refused at once, 503 with Retry-After; waiting ones past the wait limit are refused too; the ones
 * within the bounds are served once the database answers; liveness is answered throughout.
 */
const CONCURRENT = 4;
const QUEUED = 20;
const WAIT_MS = 3_000;
const RETRY_AFTER = String(WAIT_MS / 1000);

let ns: FreshNamespace;
let server: ServerProcess;
let accessToken: string;
const cwd = mkdtempSync(join(tmpdir(), "authsvc-admission-"));

beforeAll(async () => {
  ns = await freshNamespace({ maxPoolSize: 2 });
  server = await startServer(
    productionServerEnv(ns, {
      AUTHSVC_MAILER_AUTOCONFIRM: "true",
      AUTHSVC_API_MAX_CONCURRENT_REQUESTS: String(CONCURRENT),
      AUTHSVC_API_MAX_QUEUED_REQUESTS: String(QUEUED),
      AUTHSVC_API_MAX_QUEUE_WAIT: `${WAIT_MS}ms`,
      AUTHSVC_CLEANUP_ENABLED: "false",
    }),
    { cwd },
  );
  const signup = await fetch(`${server.url}/signup`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: `queue-${Date.now()}@example.com`, password: "correct horse battery" }),
  });
  expect(signup.status).toBe(200);
  accessToken = String(((await signup.json()) as { access_token: string }).access_token);
}, 60_000);

afterAll(async () => {
  await server?.stop("SIGKILL");
  await ns?.drop();
  rmSync(cwd, { recursive: true, force: true });
});

interface Answer {
  status: number;
  ms: number;
  retryAfter: string | null;
  body: Record<string, unknown>;
}

/** GET /user, timed from the moment it was sent. */
async function getUser(apiVersion?: string): Promise<Answer> {
  const started = performance.now();
  const res = await fetch(`${server.url}/user`, {
    headers: {
      authorization: `Bearer ${accessToken}`,
      ...(apiVersion ? { "x-supabase-api-version": apiVersion } : {}),
    },
  });
  const body = (await res.json()) as Record<string, unknown>;
  return {
    status: res.status,
    ms: performance.now() - started,
    retryAfter: res.headers.get("retry-after"),
    body,
  };
}

/** Holds an exclusive lock on the sessions table, so that every GET /user waits inside for its read. */
async function holdSessions(): Promise<ReservedSql> {
  const held = await ns.sql.reserve();
  await held`begin`;
  await held`lock table ${ns.sql(ns.namespace)}.sessions in access exclusive mode`;
  return held;
}

async function release(held: ReservedSql) {
  await held`rollback`;
  held.release();
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("the admission queue under a flood", () => {
  it("refuses past the queue at once with 503 and Retry-After, answers /health, and serves the queued ones", async () => {
    const held = await holdSessions();
    const flood: Promise<Answer>[] = [];
    try {
      for (let i = 0; i < CONCURRENT + QUEUED; i++) flood.push(getUser());
      // Until they are all in: the slots taken, the line full.
      await sleep(400);
      const refused = await Promise.all(
        Array.from({ length: 100 }, (_, i) => getUser(i % 2 === 0 ? "2024-01-01" : undefined)),
      );
      for (const answer of refused) {
        expect(answer.status).toBe(503);
        expect(answer.retryAfter).toBe(RETRY_AFTER);
        // At once: not after the wait limit, and not after the lock.
        expect(answer.ms).toBeLessThan(WAIT_MS / 3);
      }
      // Both error shapes, as every other answer.
      expect(refused[0]?.body).toMatchObject({
        code: "unexpected_failure",
        message: "Server busy, please retry after a moment",
      });
      expect(refused[1]?.body).toMatchObject({
        code: 503,
        error_code: "unexpected_failure",
        msg: "Server busy, please retry after a moment",
      });
      const health = await fetch(`${server.url}/health`);
      expect(health.status).toBe(200);
    } finally {
      await sleep(100);
      await release(held);
    }
    const served = await Promise.all(flood);
    expect(served.map((answer) => answer.status)).toEqual(Array(CONCURRENT + QUEUED).fill(200));
  });

  it("refuses a queued request once it waited the limit; the admitted ones are still served", async () => {
    const held = await holdSessions();
    const admitted: Promise<Answer>[] = [];
    const queued: Promise<Answer>[] = [];
    try {
      for (let i = 0; i < CONCURRENT; i++) {
        admitted.push(getUser());
        await sleep(30);
      }
      for (let i = 0; i < QUEUED; i++) queued.push(getUser());
      const late = await Promise.all(queued);
      for (const answer of late) {
        expect(answer.status).toBe(503);
        expect(answer.retryAfter).toBe(RETRY_AFTER);
        expect(answer.ms).toBeGreaterThanOrEqual(WAIT_MS - 50);
        expect(answer.ms).toBeLessThan(WAIT_MS + 1_000);
      }
      expect((await fetch(`${server.url}/health`)).status).toBe(200);
    } finally {
      await release(held);
    }
    expect((await Promise.all(admitted)).map((answer) => answer.status)).toEqual(Array(CONCURRENT).fill(200));
    // The line is empty again: the next request is served as usual.
    expect((await getUser()).status).toBe(200);
  });
});
