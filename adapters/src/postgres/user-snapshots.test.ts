import { randomUUID } from "node:crypto";
import type { User } from "@authsvc/core/accounts";
import type { RefreshGrantOutcome } from "@authsvc/core/sessions";
import { aFactor, aFullUser, anIdentity, aSession, aToken, newHash } from "@authsvc/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FreshNamespace, migratedNamespace, testDatabase } from "../testing/database.js";
import { connectPostgres, type Sql } from "./connect.js";
import type { Queryable } from "./rows.js";
import { postgresStore } from "./store.js";

// Migration 0013: the user snapshots that the refresh grant and authentication read are kept by
// triggers, whoever writes the rows and however their transactions interleave, and are used only while
// they were made from the user's row as it is.

let db: FreshNamespace;
beforeAll(async () => {
  db = await migratedNamespace({ maxPoolSize: 6 });
});
afterAll(() => db?.drop());

const NO_LIMITS = { timeboxMs: 0, inactivityTimeoutMs: 0, singlePerUser: false };
const t = (table: string) => db.sql`${db.sql(db.namespace)}.${db.sql(table)}`;

/** A user (every field set, not banned) with an email identity and a session whose refresh chain starts. */
async function seeded(fields: Partial<User> = {}) {
  const store = postgresStore(db.sql, { namespace: db.namespace });
  const user = aFullUser({ bannedUntil: null, ...fields });
  expect(await store.users.insert(user)).toBe("inserted");
  const identity = anIdentity(user);
  await store.identities.insert(identity);
  const session = aSession(user);
  await store.sessions.create(session);
  let token = await store.sessions.insertToken(aToken(session));
  /** Refreshes the chain once; answers the outcome and keeps the child for the next call. */
  const refresh = async (): Promise<Extract<RefreshGrantOutcome, { user: unknown }>> => {
    const childHash = newHash();
    const outcome = await store.sessions.grantRefresh({
      tokenHash: token.tokenHash,
      childHash,
      now: new Date(),
      rotationEnabled: true,
      reuseIntervalMs: 10_000,
      limits: NO_LIMITS,
    });
    if (outcome.kind !== "rotated") throw new Error(`answered ${outcome.kind}`);
    const child = await store.sessions.findTokenByHash(childHash);
    if (!child) throw new Error("no child token");
    token = child;
    return outcome;
  };
  return { store, user, identity, refresh };
}

const snapshotOf = async (userId: string) =>
  (await db.sql`select body::text as body from ${t("user_snapshots")} where user_id = ${userId}`)[0]?.body as
    | string
    | undefined;

/** The stored snapshot of a user, failing unless it was made from the user's row as it is now. */
async function currentSnapshot(userId: string): Promise<Record<string, unknown>> {
  const [row] = await db.sql`
    select s.user_xmin = u.xmin as current, s.body
    from ${t("user_snapshots")} s
    join ${t("users")} u on u.id = s.user_id
    where s.user_id = ${userId}
  `;
  expect(row?.current).toBe(true);
  return row?.body as Record<string, unknown>;
}

/**
 * Answers "waiting" once the backend named `application` waits for a lock (each poll a round trip), or
 * "settled" if `transaction` ends first; fails after 10 s of neither.
 */
async function waitsOrSettles(application: string, transaction: Promise<unknown>) {
  let settled = false;
  const ended = transaction.then(
    () => "settled" as const,
    () => "settled" as const,
  );
  void ended.then(() => {
    settled = true;
  });
  const deadline = Date.now() + 10_000;
  const polled = (async () => {
    while (!settled) {
      if (Date.now() > deadline) throw new Error(`${application} neither waited nor ended within 10 s`);
      const [row] = await db.sql`
        select exists (
          select 1 from pg_stat_activity
          where wait_event_type = 'Lock' and application_name = ${application}
        ) as waiting
      `;
      if (row?.waiting) return "waiting" as const;
    }
    return "settled" as const;
  })();
  return Promise.race([ended, polled]);
}

/** A promise and the function that resolves it: lets a test hold a transaction open, or wait for a step. */
function signal(): { fired: Promise<void>; fire(): void } {
  let fire!: () => void;
  const fired = new Promise<void>((resolve) => {
    fire = resolve;
  });
  return { fired, fire };
}

describe("user snapshots (migration 0013)", () => {
  it("follow changes written with plain SQL, outside this server's repositories", async () => {
    const { user, identity, refresh } = await seeded();
    await refresh();
    await db.sql`update ${t("users")} set raw_user_meta_data = '{"plan":"pro"}' where id = ${user.id}`;
    await db.sql`
      insert into ${t("identities")} (provider_id, user_id, identity_data, provider, created_at)
      values ('gh-7', ${user.id}, '{"sub":"gh-7"}', 'github', '2031-01-01')
    `;
    const factor = aFactor(user.id);
    await db.sql`
      insert into ${t("mfa_factors")} (id, user_id, friendly_name, factor_type, status, created_at, updated_at, secret)
      values (${factor.id}, ${user.id}, 'laptop', 'totp', 'verified', now(), now(), 'sealed')
    `;
    // Written by the triggers (not built by the reader because the snapshot lagged).
    const snapshot = await currentSnapshot(user.id);
    expect(snapshot).toMatchObject({ raw_user_meta_data: { plan: "pro" } });
    expect(snapshot.identities).toHaveLength(2);
    expect(snapshot.factors).toHaveLength(1);
    const { user: answered } = await refresh();
    expect(answered.userMetadata).toEqual({ plan: "pro" });
    expect(answered.identities.map((i) => i.provider)).toEqual(["email", "github"]);
    expect(answered.identities[0]).toEqual(identity);
    expect(answered.factors?.map((f) => [f.id, f.friendlyName, f.status])).toEqual([
      [factor.id, "laptop", "verified"],
    ]);
  });

  it("two transactions changing one user's identities at once: the snapshot has both", async () => {
    const { user, refresh } = await seeded();
    const add = (sql: Queryable, provider: string) => sql`
      insert into ${t("identities")} (provider_id, user_id, identity_data, provider)
      values (${`${provider}-${user.id}`}, ${user.id}, '{}', ${provider})
    `;
    // The first writes its snapshot now (its deferred triggers fire) and holds the row until it commits.
    // The second commits meanwhile: it must wait for that row and read the identities after the first
    // commits; had it read them before, its snapshot would lack the first one's identity.
    const held = signal();
    const written = signal();
    const first = db.sql.begin(async (tx) => {
      await add(tx, "github");
      await tx`set constraints all immediate`;
      written.fire();
      await held.fired;
    });
    await written.fired;
    // The embedded server runs one transaction at a time: there the second simply follows the first.
    // Its commit waits on a lock; its name tells it from other files' backends.
    const name = `snapshot-race-${db.namespace}`;
    const second = db.sql.begin(async (tx) => {
      await tx`select set_config('application_name', ${name}, true)`;
      await add(tx, "gitlab");
    });
    // (The embedded server runs one transaction at a time: there the second waits before reaching it.)
    try {
      if (!testDatabase().embedded) expect(await waitsOrSettles(name, second)).toBe("waiting");
    } finally {
      held.fire();
    }
    await Promise.all([first, second]);
    const { user: answered } = await refresh();
    expect(answered.identities.map((i) => i.provider).sort()).toEqual(["email", "github", "gitlab"]);
    expect(JSON.parse((await snapshotOf(user.id)) ?? "{}").identities).toHaveLength(3);
  });

  it("hold no secret: the password hash, the reauthentication nonce and TOTP secrets stay in their tables", async () => {
    const { store, user, refresh } = await seeded();
    const factor = aFactor(user.id, { secret: "sealed-totp-secret-7f3a" });
    expect(await store.factors.insert(factor)).toBe("inserted");
    const { user: answered } = await refresh();
    const snapshot = (await snapshotOf(user.id)) ?? "";
    expect(snapshot).toContain(factor.id);
    for (const secret of [user.encryptedPassword, user.reauthenticationToken, factor.secret]) {
      expect(secret).toBeTruthy();
      expect(snapshot).not.toContain(secret);
    }
    // The answer still carries the row's own secrets, read with the snapshot.
    expect(answered.encryptedPassword).toBe(user.encryptedPassword);
    expect(answered.reauthenticationToken).toBe(user.reauthenticationToken);
  });

  it("a user without a snapshot (written while the triggers were off) is answered from its rows", async () => {
    const { store, user, identity, refresh } = await seeded();
    await db.sql`delete from ${t("user_snapshots")} where user_id = ${user.id}`;
    const { user: answered } = await refresh();
    expect(answered).toMatchObject({ ...user, identities: [identity] });
    const authenticated = await store.sessions.findUserAndSession(user.id, null);
    expect(authenticated.user).toMatchObject({ ...user, identities: [identity] });
  });

  it("are what authenticating a request reads, with the user's row as its last change left it", async () => {
    const { store, user, identity } = await seeded();
    await db.sql`update ${t("users")} set raw_app_meta_data = '{"role":"editor"}' where id = ${user.id}`;
    const factor = aFactor(user.id, { friendlyName: "key", createdAt: new Date() });
    expect(await store.factors.insert(factor)).toBe("inserted");
    expect(await currentSnapshot(user.id)).toMatchObject({ raw_app_meta_data: { role: "editor" } });
    const { user: answered } = await store.sessions.findUserAndSession(user.id, null);
    expect(answered).toMatchObject({
      ...user,
      appMetadata: { role: "editor" },
      identities: [identity],
      factors: [{ id: factor.id, friendlyName: "key" }],
    });
  });

  it("are not used once the user's row changed without them: a change written with the triggers off is answered at once", async () => {
    const { store, user, refresh } = await seeded();
    await db.sql.begin(async (tx) => {
      await tx`set local session_replication_role = replica`;
      await tx`update ${t("users")} set raw_app_meta_data = '{"tenant":"b"}', role = 'editor' where id = ${user.id}`;
    });
    const { user: refreshed } = await refresh();
    expect(refreshed).toMatchObject({ appMetadata: { tenant: "b" }, role: "editor" });
    const { user: authenticated } = await store.sessions.findUserAndSession(user.id, null);
    expect(authenticated).toMatchObject({ appMetadata: { tenant: "b" }, role: "editor" });
  });

  it("a user without a snapshot, changed while another transaction holds the user's row: commits without waiting for it", async () => {
    const { user, refresh } = await seeded();
    await db.sql`delete from ${t("user_snapshots")} where user_id = ${user.id}`;
    // The first holds the user's row (as an admin update does), then adds an identity. The second
    // changes the user's email identity and commits meanwhile, creating the missing snapshot row: were
    // that to wait for the user's row while holding the new one, the first's commit would then wait for
    // the new row (a deadlock: one of them would fail).
    const held = signal();
    const lockedUser = signal();
    const first = db.sql.begin(async (tx) => {
      await tx`select 1 from ${t("users")} where id = ${user.id} for update`;
      lockedUser.fire();
      await held.fired;
      await tx`
        insert into ${t("identities")} (provider_id, user_id, identity_data, provider)
        values (${`github-${user.id}`}, ${user.id}, '{}', 'github')
      `;
    });
    await lockedUser.fired;
    const name = `snapshot-missing-${db.namespace}`;
    const second = db.sql.begin(async (tx) => {
      await tx`select set_config('application_name', ${name}, true)`;
      await tx`
        update ${t("identities")} set identity_data = '{"changed":true}'
        where user_id = ${user.id} and provider = 'email'
      `;
    });
    try {
      if (!testDatabase().embedded) expect(await waitsOrSettles(name, second)).toBe("settled");
    } finally {
      held.fire();
    }
    await Promise.all([first, second]);
    const { user: answered } = await refresh();
    const byProvider = [...answered.identities].sort((a, b) => a.provider.localeCompare(b.provider));
    expect(byProvider.map((i) => [i.provider, i.identityData])).toEqual([
      ["email", { changed: true }],
      ["github", {}],
    ]);
  });

  it("changing two identities while another transaction holds the user's row: commits without waiting for it", async () => {
    const { user, refresh } = await seeded();
    await db.sql`
      insert into ${t("identities")} (provider_id, user_id, identity_data, provider)
      values (${`github-${user.id}`}, ${user.id}, '{}', 'github')
    `;
    // The holder locks the user's row (as admin updates, verification and linking do), then changes it.
    // The other changes both identities (two writes of the snapshot in one commit) and must commit
    // meanwhile: were the snapshot's writes to wait for the user's row while holding the snapshot's,
    // the holder's commit would then wait for them (a deadlock).
    const held = signal();
    const lockedUser = signal();
    const holder = db.sql.begin(async (tx) => {
      await tx`select 1 from ${t("users")} where id = ${user.id} for update`;
      lockedUser.fire();
      await held.fired;
      await tx`update ${t("users")} set raw_user_meta_data = '{"held":true}' where id = ${user.id}`;
    });
    await lockedUser.fired;
    const name = `snapshot-two-writes-${db.namespace}`;
    const other = db.sql.begin(async (tx) => {
      await tx`select set_config('application_name', ${name}, true)`;
      await tx`update ${t("identities")} set identity_data = '{"n":2}' where user_id = ${user.id}`;
    });
    try {
      if (!testDatabase().embedded) expect(await waitsOrSettles(name, other)).toBe("settled");
    } finally {
      held.fire();
    }
    await Promise.all([holder, other]);
    const { user: answered } = await refresh();
    expect(answered.userMetadata).toEqual({ held: true });
    expect(answered.identities.map((i) => i.identityData)).toEqual([{ n: 2 }, { n: 2 }]);
    expect(await currentSnapshot(user.id)).toMatchObject({ raw_user_meta_data: { held: true } });
  });

  it("go with their user, and are rebuilt after identities or factors are truncated", async () => {
    const gone = await seeded();
    const kept = await seeded();
    const factor = aFactor(kept.user.id);
    expect(await kept.store.factors.insert(factor)).toBe("inserted");
    expect(await gone.store.users.delete(gone.user.id)).toBe(true);
    expect(await snapshotOf(gone.user.id)).toBeUndefined();
    await db.sql`truncate ${t("identities")}`;
    await db.sql`truncate ${t("mfa_factors")} cascade`;
    const snapshot = JSON.parse((await snapshotOf(kept.user.id)) ?? "{}");
    expect(snapshot).toMatchObject({ id: kept.user.id, identities: [], factors: [] });
  });

  it("go with their users when users are truncated (the last test here: it empties the namespace)", async () => {
    await seeded();
    await db.sql`truncate ${t("users")} cascade`;
    const [row] = await db.sql`select count(*)::int as left from ${t("user_snapshots")}`;
    expect(row?.left).toBe(0);
  });
});

describe("authentication's read without named statements (migrations/functions/user_and_session.sql)", () => {
  it("answers what the statement answers: current, stale and missing snapshots, a session or none, no user", async () => {
    const { store, user, identity } = await seeded();
    const unnamed = postgresStore(db.sql, { namespace: db.namespace, unnamedStatements: true });
    const [session] = await store.sessions.listForUser(user.id);
    if (!session) throw new Error("no session");
    const alike = async (userId: string, sessionId: string | null) => {
      const expected = await store.sessions.findUserAndSession(userId, sessionId);
      expect(await unnamed.sessions.findUserAndSession(userId, sessionId)).toEqual(expected);
      return expected;
    };
    expect((await alike(user.id, session.id)).session?.id).toBe(session.id);
    expect(await alike(user.id, null)).toMatchObject({
      user: { ...user, identities: [identity] },
      session: null,
    });
    expect((await alike(user.id, randomUUID())).session).toBeNull();
    expect(await alike(randomUUID(), null)).toEqual({ user: null, session: null });
    // A change written with the triggers off leaves the snapshot stale: the body is built from the rows.
    await db.sql.begin(async (tx) => {
      await tx`set local session_replication_role = replica`;
      await tx`update ${t("users")} set raw_app_meta_data = '{"tenant":"b"}' where id = ${user.id}`;
    });
    expect((await alike(user.id, session.id)).user?.appMetadata).toEqual({ tenant: "b" });
    await db.sql`delete from ${t("user_snapshots")} where user_id = ${user.id}`;
    expect((await alike(user.id, null)).user).toMatchObject({ ...user, appMetadata: { tenant: "b" } });
  });

  it("is what a pool of unnamed statements reads by default; a pool of named ones keeps the statement", async () => {
    const { user } = await seeded();
    const unnamedPool = connectPostgres({ url: db.url, maxPoolSize: 1, embedded: true });
    try {
      // Without the function, only the store that reads through it fails.
      await db.sql`alter function ${db.sql(db.namespace)}.user_and_session(uuid, uuid) rename to user_and_session_away`;
      const read = (sql: Sql) =>
        postgresStore(sql, { namespace: db.namespace }).sessions.findUserAndSession(user.id, null);
      await expect(read(unnamedPool)).rejects.toThrow(/user_and_session/);
      // The test pool runs named statements, but on the embedded database (one shared backend).
      if (db.sql.options.prepare) expect((await read(db.sql)).user?.id).toBe(user.id);
      else await expect(read(db.sql)).rejects.toThrow(/user_and_session/);
    } finally {
      await db.sql`alter function ${db.sql(db.namespace)}.user_and_session_away(uuid, uuid) rename to user_and_session`;
      await unnamedPool.end();
    }
  });
});
