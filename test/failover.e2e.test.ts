import { createHash } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { roleKey, TEST_JWT_SECRET } from "@authsvc/http/testing";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MixedLoad, type Outcome, startMixedLoad } from "./support/mixed-load.js";
import {
  PATRONI_MISSING,
  type PatroniCluster,
  type PatroniNode,
  patroniInstalled,
  startPatroniCluster,
} from "./support/patroni.js";
import { type ServerProcess, startServer } from "./support/server-process.js";

/**
 * The server on a high-availability PostgreSQL (Patroni with etcd: a primary and a synchronous
 * replica, docs/operations.md), its DATABASE_URL naming both nodes with target_session_attrs=read-write.
 * Under a mixed load the primary's machine dies (Patroni and PostgreSQL killed at once); Patroni
 * promotes the synchronous standby once the leader key expires. While no primary answers, requests
 * are answered 503 (never 500, never left hanging); after the promotion everything answers 200 again;
 * no committed sign-up or rotation is lost, and no refresh token gets two different answers.
 */
const runnable = patroniInstalled();
if (!runnable) console.warn(PATRONI_MISSING);

/** A request that gets no answer within this long counts as a hang (status 0). */
const CLIENT_TIMEOUT_MS = 10_000;
/** Correctness, not speed: the service answering again at all, long after Patroni's ttl of 10 s. */
const RECOVERY_BOUND_MS = 60_000;
/** How long every request must have answered 200 before the load stops. */
const HEALTHY_STRETCH_MS = 3_000;
const REUSE_INTERVAL_S = 10;

const cwd = mkdtempSync(join(tmpdir(), "authsvc-failover-"));
const sha256 = (token: string) => createHash("sha256").update(token).digest("hex");
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const round = (ms: number) => Math.round(ms / 100) / 10;

let cluster: PatroniCluster;
let server: ServerProcess;
let apikey: string;

describe.skipIf(!runnable)("failover of a Patroni-managed PostgreSQL under load", () => {
  beforeAll(async () => {
    cluster = await startPatroniCluster();
    // The server migrates the schema as it starts, on whichever node is the primary.
    server = await startServer(
      {
        DATABASE_URL: cluster.url,
        AUTHSVC_DB_MAX_POOL_SIZE: "10",
        AUTHSVC_SITE_URL: "http://localhost:3000",
        AUTHSVC_API_EXTERNAL_URL: "http://localhost:9999",
        AUTHSVC_JWT_SECRET: TEST_JWT_SECRET,
        AUTHSVC_API_HOST: "127.0.0.1",
        AUTHSVC_MAILER_AUTOCONFIRM: "true",
        AUTHSVC_SECURITY_REFRESH_TOKEN_REUSE_INTERVAL: String(REUSE_INTERVAL_S),
        PORT: "0",
      },
      { cwd },
    );
    apikey = await roleKey("anon");
  }, 150_000);

  afterAll(async () => {
    await server?.stop("SIGKILL");
    await cluster?.stop();
    rmSync(cwd, { recursive: true, force: true });
  });

  it("answers 503 while no primary answers, 200 after the promotion, and loses no commit", async () => {
    const leader = await cluster.untilLeaderAndSyncStandby(10_000);
    const load = startMixedLoad({ url: server.url, apikey }, { loops: 4, timeoutMs: CLIENT_TIMEOUT_MS });
    await untilLoad(load, (o) => o.filter((x) => x.status === 200).length >= 30);

    const killedAt = performance.now();
    await cluster.kill(leader);
    const promoted = await cluster.untilLeaderOtherThan(leader, RECOVERY_BOUND_MS);
    const promotedAt = performance.now();
    // The load goes on until every request has answered 200 for a while (or the bound has passed).
    await untilLoad(load, (o) => {
      const lastFailure = Math.max(killedAt, ...o.filter((x) => x.status !== 200).map((x) => x.ended));
      const now = performance.now();
      return now - lastFailure > HEALTHY_STRETCH_MS || now - killedAt > RECOVERY_BOUND_MS;
    });
    await load.stop();

    const figures = summarize(load.outcomes, killedAt, promotedAt);
    console.log(
      `failover: ${leader.name} killed, ${promoted.name} promoted after ${round(promotedAt - killedAt)} s;` +
        ` answers failing for ${figures.failingSeconds} s (the slowest failure in ${figures.slowestFailureSeconds} s),` +
        ` all 200 again ${figures.allOkSeconds} s after the kill;` +
        ` statuses ${JSON.stringify(figures.statuses)}; ${load.accounts.length} sign-ups,` +
        ` ${load.rotations.length} rotations, ${load.unanswered.length} refresh answers lost`,
    );

    // Only 503s, each a JSON error saying the database is unavailable; no hang, no 500.
    const failures = load.outcomes.filter((o) => o.status !== 200);
    expect(failures.filter((o) => o.status !== 503).map((o) => `${o.kind} ${o.status}`)).toEqual([]);
    for (const o of failures) {
      expect(o.body).toMatchObject({ code: 503, msg: expect.stringMatching(/database unavailable/i) });
      expect(o.ended).toBeGreaterThan(killedAt);
    }
    expect(failures.length).toBeGreaterThan(0);
    // Everything answers 200 again: each kind of request, after the last failure.
    const lastFailure = Math.max(...failures.map((o) => o.ended));
    expect(lastFailure - killedAt).toBeLessThan(RECOVERY_BOUND_MS);
    for (const kind of ["signup", "refresh", "user"]) {
      expect(load.outcomes.some((o) => o.kind === kind && o.started > lastFailure && o.status === 200)).toBe(
        true,
      );
    }

    await expectNoSignUpLost(load);
    await expectRotationsStored(load, promoted);
    const replays = await expectReplaysFollowReuseRules(load, promoted);
    console.log(`failover: lost refresh answers replayed: ${JSON.stringify(replays)}`);
  }, 150_000);
});

/** Waits (the load running) until `done` says so about the outcomes so far. */
async function untilLoad(load: MixedLoad, done: (outcomes: Outcome[]) => boolean) {
  while (!done(load.outcomes)) await pause(100);
}

function summarize(outcomes: Outcome[], killedAt: number, promotedAt: number) {
  const failures = outcomes.filter((o) => o.status !== 200);
  const first = Math.min(...failures.map((o) => o.ended));
  const last = Math.max(...failures.map((o) => o.ended));
  const statuses: Record<string, Record<number, number>> = {};
  for (const o of outcomes) {
    const byStatus = statuses[o.kind] ?? {};
    byStatus[o.status] = (byStatus[o.status] ?? 0) + 1;
    statuses[o.kind] = byStatus;
  }
  return {
    slowestFailureSeconds: round(Math.max(...failures.map((o) => o.ended - o.started))),
    failingSeconds: round(last - first),
    allOkSeconds: round(last - killedAt),
    promotedSeconds: round(promotedAt - killedAt),
    statuses,
  };
}

async function post(path: string, body: unknown) {
  const res = await fetch(`${server.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", apikey },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(CLIENT_TIMEOUT_MS),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** Every sign-up answered 200 signs in with its password on the promoted primary. */
async function expectNoSignUpLost(load: MixedLoad) {
  const refused: string[] = [];
  for (const account of load.accounts) {
    const { status } = await post("/token?grant_type=password", {
      email: account.email,
      password: account.password,
    });
    if (status !== 200) refused.push(`${account.email}: ${status}`);
  }
  expect(refused).toEqual([]);
}

async function onNode<T>(node: PatroniNode, run: (sql: postgres.Sql) => Promise<T>): Promise<T> {
  const sql = postgres(cluster.nodeUrl(node), { max: 1, onnotice: () => {} });
  try {
    return await run(sql);
  } finally {
    await sql.end();
  }
}

/** Every rotation answered 200 is in the promoted primary: the child stored as the parent's. */
async function expectRotationsStored(load: MixedLoad, primary: PatroniNode) {
  const parents = load.rotations.map((r) => sha256(r.parent));
  const children = load.rotations.map((r) => sha256(r.child));
  const stored = await onNode(
    primary,
    (sql) => sql<{ parent: string; child: string }[]>`
    select p.token_hash as parent, c.token_hash as child
    from unnest(${parents}::text[], ${children}::text[]) as answered(parent, child)
    join auth.refresh_tokens p on p.token_hash = answered.parent
    join auth.refresh_tokens c on c.token_hash = answered.child and c.parent_id = p.id
  `,
  );
  expect(stored.length).toBe(load.rotations.length);
  // The load presented each token once: no token has two answered children.
  expect(new Set(parents).size).toBe(parents.length);
}

/**
 * A refresh token whose answer was lost is presented again. Its child is derived from it, so the
 * answer is that child whether the lost rotation committed or not; a committed one replayed after the
 * reuse interval is refused as reuse (refresh_token_already_used), as the reference does. Never a
 * second, different child.
 */
async function expectReplaysFollowReuseRules(load: MixedLoad, primary: PatroniNode) {
  expect(load.unanswered.length).toBeGreaterThan(0);
  const replays = { answeredTheChild: 0, ofACommittedRotation: 0, refusedAsReuse: 0 };
  for (const token of load.unanswered) {
    const before = await childOf(primary, token);
    const { status, body } = await post("/token?grant_type=refresh_token", { refresh_token: token });
    const after = await childOf(primary, token);
    if (status === 200) {
      expect(after.child).toBe(sha256(String(body.refresh_token)));
      if (before.child) expect(before.child).toBe(after.child);
      replays.answeredTheChild++;
      if (before.child) replays.ofACommittedRotation++;
    } else {
      // Only a rotation that had committed (the answer lost) may be refused, and only as reuse.
      expect({ status, code: body.error_code, committed: before.child !== null }).toEqual({
        status: 400,
        code: "refresh_token_already_used",
        committed: true,
      });
      expect(before.secondsSinceRevoked).toBeGreaterThan(REUSE_INTERVAL_S - 1);
      replays.refusedAsReuse++;
    }
  }
  return replays;
}

/** The stored child of a token (by hash) and how long ago the token was revoked. */
async function childOf(node: PatroniNode, token: string) {
  const [row] = await onNode(
    node,
    (sql) => sql<{ child: string | null; seconds: number }[]>`
    select c.token_hash as child, extract(epoch from now() - p.updated_at)::float8 as seconds
    from auth.refresh_tokens p
    left join auth.refresh_tokens c on c.parent_id = p.id
    where p.token_hash = ${sha256(token)}
  `,
  );
  return { child: row?.child ?? null, secondsSinceRevoked: row?.seconds ?? 0 };
}
