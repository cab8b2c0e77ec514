import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { type FreshNamespace, migratedNamespace } from "@authsvc/adapters/testing";
import { productionServerEnv, roleKey } from "@authsvc/http/testing";
import { GoTrueAdminApi } from "@supabase/auth-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ServerProcess, startServer } from "./support/server-process.js";

/**
 * The per-account lockout on two instances of the built server sharing one database: wrong passwords
 * sent to both at once lock the account exactly once; a locked account's right password is answered
 * exactly as a wrong password (status, body, time); an admin's unlock and a proven mailbox end it.
 */
let ns: FreshNamespace;
let servers: ServerProcess[] = [];
let admin: GoTrueAdminApi;
let serviceKey: string;
const cwd = mkdtempSync(join(tmpdir(), "authsvc-lockout-"));
const PASSWORD = "secret-password-1";
/** Rounds of the timing comparison (the first four not counted). */
const ROUNDS = 40;
let counter = 0;

beforeAll(async () => {
  ns = await migratedNamespace();
  serviceKey = await roleKey("service_role");
  // Few connections each: the test database is shared with every other test file of the run.
  const env = productionServerEnv(ns, { AUTHSVC_MAILER_AUTOCONFIRM: "true", AUTHSVC_DB_MAX_POOL_SIZE: "5" });
  servers = await Promise.all([startServer(env, { cwd }), startServer(env, { cwd })]);
  admin = new GoTrueAdminApi({
    url: servers[0]?.url ?? "",
    headers: { Authorization: `Bearer ${serviceKey}` },
  });
}, 60_000);

afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  await ns?.drop();
  rmSync(cwd, { recursive: true, force: true });
});

async function aUser() {
  const email = `locked-${Date.now()}-${++counter}@example.com`;
  const created = await admin.createUser({ email, password: PASSWORD, email_confirm: true });
  if (created.error) throw created.error;
  return { email, id: created.data.user.id };
}

/** CPU time (clock ticks, user + system, every thread: the hashing pool's too) of process `pid`. */
function cpuTicks(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
  return Number(fields[11]) + Number(fields[12]);
}

/** A password sign-in on instance `n`: its status, body text, time and the CPU it cost that instance. */
async function signIn(n: number, email: string, password: string) {
  const server = servers[n % servers.length];
  const ticks = server ? cpuTicks(server.pid) : 0;
  const started = performance.now();
  const res = await fetch(`${server?.url}/token?grant_type=password`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password }),
  });
  const body = await res.text();
  const ms = performance.now() - started;
  return { status: res.status, body, ms, cpu: server ? cpuTicks(server.pid) - ticks : 0 };
}

const locksOf = async (userId: string) => {
  const rows = await ns.sql`
    select payload from ${ns.sql(ns.namespace)}.audit_log_entries
    where payload ->> 'action' = 'user_locked' and payload ->> 'actor_id' = ${userId}`;
  return rows.length;
};

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[sorted.length >> 1] as number;
};

async function lockedUser() {
  const user = await aUser();
  // 30 wrong passwords, 15 to each instance, all at once.
  const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => signIn(i, user.email, "wrong")));
  expect(new Set(answers.map((a) => a.status))).toEqual(new Set([400]));
  return user;
}

describe("the account lockout on two instances", () => {
  it("locks once under wrong passwords sent to both at once; the right password is then refused alike", async () => {
    const user = await lockedUser();
    expect(await locksOf(user.id)).toBe(1);
    const wrong = await signIn(0, user.email, "wrong");
    for (const n of [0, 1]) {
      const right = await signIn(n, user.email, PASSWORD);
      expect(right.status).toBe(wrong.status);
      expect(right.body).toBe(wrong.body);
    }
    expect(JSON.parse(wrong.body)).toMatchObject({ error_code: "invalid_credentials" });
    // Still one lock: attempts while locked are counted, not locked again.
    expect(await locksOf(user.id)).toBe(1);
    const seen = await fetch(`${servers[1]?.url}/admin/users/${user.id}/lockout`, {
      headers: { authorization: `Bearer ${serviceKey}` },
    });
    const lockout = (await seen.json()) as { failed_attempts: number; locked_until: string };
    expect(lockout.failed_attempts).toBeGreaterThanOrEqual(33);
    expect(Date.parse(lockout.locked_until)).toBeGreaterThan(Date.now() + 14 * 60_000);
  });

  // Wall time on shared cores swings by more than a skipped hash: the comparison is of the CPU each
  // answer costs its instance (summed over the rounds), which a refusal that skipped the password's
  // hash (16 ms of argon2id) would cut to a fraction. The medians of wall time are printed.
  it("refuses a locked account's right password with a wrong one's body and work: no shortcut to tell", async () => {
    const target = await lockedUser();
    const free = await Promise.all(Array.from({ length: ROUNDS }, () => aUser()));
    const times = { locked: [] as number[], wrong: [] as number[], unknown: [] as number[] };
    const cpu = { locked: 0, wrong: 0, unknown: 0 };
    const bodies = new Set<string>();
    for (let i = 0; i < ROUNDS; i++) {
      const send = {
        locked: () => signIn(i, target.email, PASSWORD),
        wrong: () => signIn(i, free[i]?.email ?? "", "wrong"),
        unknown: () => signIn(i, `nobody-${Date.now()}-${i}@example.com`, PASSWORD),
      };
      // Each kind takes each place in the round in turn, so that no kind always follows another.
      const kinds = (["locked", "wrong", "unknown"] as const).map(
        (_, k, all) => all[(i + k) % 3] ?? "locked",
      );
      for (const kind of kinds) {
        const answer = await send[kind]();
        expect(answer.status, `${kind} #${i}`).toBe(400);
        bodies.add(answer.body);
        // The first rounds warm the instances up.
        if (i >= 4) {
          times[kind].push(answer.ms);
          cpu[kind] += answer.cpu;
        }
      }
    }
    expect(bodies.size).toBe(1);
    console.log(
      `[lockout] wall medians ms: locked ${median(times.locked)}, wrong ${median(times.wrong)}, unknown ${median(times.unknown)}; CPU ticks: ${JSON.stringify(cpu)}`,
    );
    expect(cpu.wrong, "a wrong password costs its hash").toBeGreaterThan(0);
    for (const kind of ["locked", "unknown"] as const) {
      const ratio = cpu[kind] / cpu.wrong;
      expect(ratio, `${kind}: ${cpu[kind]} ticks, wrong: ${cpu.wrong}`).toBeGreaterThan(0.6);
      expect(ratio, `${kind}: ${cpu[kind]} ticks, wrong: ${cpu.wrong}`).toBeLessThan(1.67);
    }
  }, 120_000);

  it("ends at an admin's unlock, and when the user proves the mailbox with a magic link", async () => {
    const first = await lockedUser();
    const unlocked = await fetch(`${servers[0]?.url}/admin/users/${first.id}/lockout`, {
      method: "DELETE",
      headers: { authorization: `Bearer ${serviceKey}` },
    });
    expect(await unlocked.json()).toEqual({ failed_attempts: 0, locked_until: null });
    expect((await signIn(1, first.email, PASSWORD)).status).toBe(200);
    const audit = await ns.sql`
      select payload from ${ns.sql(ns.namespace)}.audit_log_entries
      where payload ->> 'action' = 'user_unlocked' and payload -> 'traits' ->> 'user_id' = ${first.id}`;
    expect(audit).toHaveLength(1);

    const second = await lockedUser();
    const link = await admin.generateLink({ type: "magiclink", email: second.email });
    if (link.error) throw link.error;
    const verified = await fetch(`${servers[1]?.url}/verify`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ type: "magiclink", token_hash: link.data.properties.hashed_token }),
    });
    expect(verified.status).toBe(200);
    expect((await signIn(0, second.email, PASSWORD)).status).toBe(200);
  });
});
