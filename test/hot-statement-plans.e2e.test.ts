import { createHash, randomUUID } from "node:crypto";
import { cleanupTasks, postgresStore } from "@authsvc/adapters";
import { type FreshNamespace, migratedNamespace, testDatabase } from "@authsvc/adapters/testing";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { populate } from "./support/population.js";

/**
 * The plans of the hot statements on a database of 100,000 users (identities, sessions, refresh
 * chains, pending one-time tokens), as PostgreSQL runs them for the store's real calls: every one
 * reaches its rows through an index, none reads a big table whole — so their cost stays flat as
 * the tables grow. The plans, nested statements of the grant functions included, are captured with
 * `auto_explain` on the connection the store uses (its log lines sent to the client as notices).
 */
const POPULATION = 100_000;
const BIG_TABLES = ["users", "identities", "sessions", "refresh_tokens", "one_time_tokens", "user_snapshots"];
const runnable = !testDatabase().embedded;
if (!runnable) console.warn("hot statement plans NOT CHECKED: the embedded database has no auto_explain");

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

let ns: FreshNamespace;
let explained: postgres.Sql;
let plans: string[] = [];
let user: { id: string; email: string; sessionId: string };

describe.skipIf(!runnable)(`hot statements on ${POPULATION.toLocaleString("en")} users`, () => {
  beforeAll(async () => {
    explained = postgres(testDatabase().url, {
      max: 1,
      idle_timeout: 0,
      onnotice: (notice) => {
        if (String(notice.message).includes("plan:")) plans.push(String(notice.message));
      },
    });
    // First, so that a database without the module (or a role that may not load it) fails at once.
    await explained`load 'auto_explain'`.catch((error: unknown) => {
      throw new Error(
        `the plans test loads auto_explain, which needs a superuser and the contrib module: ${error}`,
      );
    });
    await explained`set auto_explain.log_min_duration = 0`;
    await explained`set auto_explain.log_nested_statements = on`;
    await explained`set client_min_messages = log`;
    ns = await migratedNamespace();
    await populate(testDatabase().url, {
      count: POPULATION,
      namespace: ns.namespace,
      tokensPerSession: 2,
      oneTimeTokens: true,
    });
    const [row] = await explained`
      select u.id, u.email, s.id as session_id
      from ${explained(ns.namespace)}.users u
      join ${explained(ns.namespace)}.sessions s on s.user_id = u.id
      where u.email = 'population-54321@example.com'
    `;
    user = { id: row?.id as string, email: row?.email as string, sessionId: row?.session_id as string };
    // The grant checks the hash it verified is still the user's (the population has no passwords).
    await ns.sql`
      update ${ns.sql(ns.namespace)}.users set encrypted_password = '$argon2id$v=19$m=19456,t=2,p=1$stand-in'
      where id = ${user.id}
    `;
  }, 240_000);

  afterAll(async () => {
    await explained?.end();
    await ns?.drop();
  });

  /** The plans of the statements `call` runs; the rows of no big table read whole. */
  async function plansOf(
    call: (store: ReturnType<typeof postgresStore>) => Promise<unknown>,
    options: { unnamedStatements?: boolean } = {},
  ) {
    plans = [];
    await call(postgresStore(explained, { namespace: ns.namespace, ...options }));
    const text = plans.join("\n");
    expect(plans.length).toBeGreaterThan(0);
    for (const table of BIG_TABLES) expect(text).not.toMatch(new RegExp(`Seq Scan on ${table}\\b`));
    return text;
  }

  it("GET /user: the user, its snapshot and the session by primary key", async () => {
    const text = await plansOf(async (store) => {
      const found = await store.sessions.findUserAndSession(user.id, user.sessionId);
      expect(found.user?.email).toBe(user.email);
      expect(found.session?.id).toBe(user.sessionId);
    });
    expect(text).toMatch(/Index Scan using users_pkey/);
    expect(text).toMatch(/Index Scan using user_snapshots_pkey/);
    expect(text).toMatch(/Index Scan using sessions_pkey/);
  });

  it("GET /user without named statements: the same indexes, from inside user_and_session", async () => {
    const text = await plansOf(
      async (store) => {
        const found = await store.sessions.findUserAndSession(user.id, user.sessionId);
        expect(found.user?.email).toBe(user.email);
        expect(found.session?.id).toBe(user.sessionId);
      },
      { unnamedStatements: true },
    );
    expect(text).toMatch(/Function Scan on user_and_session/);
    expect(text).toMatch(/Index Scan using users_pkey/);
    expect(text).toMatch(/Index Scan using user_snapshots_pkey/);
    expect(text).toMatch(/Index Scan using sessions_pkey/);
  });

  it("refresh grant: the presented token by its hash, the session's live token by session", async () => {
    const text = await plansOf(async (store) => {
      const outcome = await store.sessions.grantRefresh({
        tokenHash: sha256(`${user.sessionId}:2`),
        childHash: sha256(randomUUID()),
        now: new Date(),
        rotationEnabled: true,
        reuseIntervalMs: 10_000,
        limits: { timeboxMs: 0, inactivityTimeoutMs: 0, singlePerUser: false },
      });
      expect(outcome.kind).toBe("rotated");
    });
    expect(text).toMatch(/Index Scan using refresh_tokens_token_hash_unique/);
  });

  it("password grant: the user by email, then the grant's writes by primary key", async () => {
    const text = await plansOf(async (store) => {
      const found = await store.users.findByEmail(user.email);
      expect(found?.id).toBe(user.id);
      const session = {
        id: randomUUID(),
        userId: user.id,
        createdAt: new Date(),
        updatedAt: new Date(),
        aal: "aal1" as const,
        amr: [{ method: "password", timestamp: Math.floor(Date.now() / 1000) }],
        notAfter: null,
        refreshedAt: null,
      };
      const granted = await store.sessions.grantPassword({
        userId: user.id,
        verifiedHash: found?.encryptedPassword ?? "",
        upgradedHash: null,
        now: new Date(),
        session,
        refreshTokenHash: sha256(randomUUID()),
        provider: "email",
      });
      expect(granted?.id).toBe(user.id);
    });
    expect(text).toMatch(/Index Scan using users_email/);
    expect(text).toMatch(/Index Scan using users_pkey/);
  });

  it("verify: the one-time token by its hash", async () => {
    const text = await plansOf(async (store) => {
      const token = await store.oneTimeTokens.consumeByTokenHash(sha256(`ott:${user.id}`), [
        "confirmation_token",
      ]);
      expect(token?.userId).toBe(user.id);
    });
    expect(text).toMatch(/Index Scan using one_time_tokens_token_hash_hash_idx/);
  });

  it("admin list, first page, page 1,000 and the last: an index-only walk in creation order", async () => {
    for (const offset of [0, 49_950, POPULATION - 50]) {
      const text = await plansOf(async (store) => {
        const list = await store.users.list({ offset, limit: 50, aud: "authenticated" });
        expect(list.users).toHaveLength(50);
        expect(list.users[0]?.email).toBe(`population-${POPULATION - offset}@example.com`);
        expect(list.total).toBe(POPULATION);
      });
      expect(text).toMatch(/Index Only Scan (Backward )?using users_aud_created_at_id_idx/);
      // The total from the counters, not a count of the users.
      expect(text).toMatch(/Scan (using \w+ )?on user_counts/);
    }
  });

  it("admin list with a filter: the matches from the trigram indexes of the email and the name", async () => {
    const text = await plansOf(async (store) => {
      const list = await store.users.list({
        offset: 0,
        limit: 50,
        aud: "authenticated",
        filter: "population-54321@",
        countLimit: 1_000,
      });
      expect(list.users.map((u) => u.email)).toEqual([user.email]);
      expect(list.total).toBe(1);
    });
    expect(text).toMatch(/Bitmap Index Scan on users_email_trgm_idx/);
    expect(text).toMatch(/Bitmap Index Scan on users_full_name_trgm_idx/);
  });

  it("cleanup: every task finds its batch through an index, none reads a big table whole", async () => {
    const tasks = cleanupTasks({
      sessionTimeboxMs: 0,
      sessionInactivityTimeoutMs: 0,
      anonymousUsersEnabled: true,
      oneTimeTokenLifetimeMs: 60 * 60 * 1000,
      mfaChallengeLifetimeMs: 5 * 60 * 1000,
      auditLogRetentionMs: 0,
      revokedTokenRetentionMs: 24 * 60 * 60 * 1000,
      endedSessionRetentionMs: 24 * 60 * 60 * 1000,
    });
    const indexOf: Readonly<Record<string, RegExp>> = {
      refresh_tokens: /Index Scan using refresh_tokens_updated_at_idx/,
      sessions_past_not_after: /Index Scan using sessions_not_after_idx/,
      one_time_tokens: /Index Scan using one_time_tokens_created_at_idx/,
      anonymous_users: /Index Scan using users_anonymous_created_at_idx/,
    };
    for (const task of tasks) {
      plans = [];
      // Nothing of the population is stale yet: each statement looks and removes nothing.
      const removed = await explained.begin((tx) =>
        task.run({ sql: tx, namespace: ns.namespace, limit: 100 }),
      );
      expect({ task: task.name, removed }).toEqual({ task: task.name, removed: 0 });
      const text = plans.join("\n");
      for (const table of BIG_TABLES)
        expect(text, task.name).not.toMatch(new RegExp(`Seq Scan on ${table}\\b`));
      const index = indexOf[task.name];
      if (index) expect(text, task.name).toMatch(index);
    }
  });
});
