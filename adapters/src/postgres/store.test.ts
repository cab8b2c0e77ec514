import type { AuditAction, AuditEntry } from "@authsvc/core/accounts";
import { aUser, describeStoreContract, type StoreHarness } from "@authsvc/core/testing";
import type { Row } from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FreshNamespace, migratedNamespace, testDatabase } from "../testing/database.js";
import type { Sql } from "./connect.js";
import { postgresStore } from "./store.js";

let db: FreshNamespace;
beforeAll(async () => {
  db = await migratedNamespace();
});
afterAll(() => db?.drop());

/** Reads an audit row back as the entry that wrote it (the inverse of postgresAuditLog). */
function entryFromRow(row: Row): AuditEntry {
  const payload = row.payload as Record<string, unknown>;
  return {
    action: payload.action as AuditAction,
    actorId: payload.actor_id as string,
    actorUsername: payload.actor_username as string,
    traits: payload.traits as AuditEntry["traits"],
    ipAddress: row.ip_address === "" ? undefined : row.ip_address,
    at: row.created_at,
  };
}

/**
 * Resolves once a backend waits for a lock in a statement on `namespace` (the namespace is unique to this
 * file, so other test files' transactions never count). Each poll is a round trip: no timers involved.
 */
async function untilLockWaited(sql: Sql, namespace: string, stop: () => boolean): Promise<void> {
  while (!stop()) {
    const [row] = await sql`
      select
        exists (
          select 1
          from pg_stat_activity
          where wait_event_type = 'Lock'
            and position(${namespace} in query) > 0
        ) as waiting
    `;
    if (row?.waiting) return;
  }
}

async function makeStore(): Promise<StoreHarness> {
  const { sql, namespace } = db;
  const t = (table: string) => sql`${sql(namespace)}.${sql(table)}`;
  return {
    store: postgresStore(sql, { namespace }),
    // One namespace for the whole file, emptied after each test: migrating one per test costs more.
    cleanup: async () => {
      await sql`truncate ${t("users")}, ${t("audit_log_entries")}, ${t("flow_state")} cascade`;
    },
    auditEntries: async () =>
      (await sql`select * from ${t("audit_log_entries")} order by created_at, id`).map(entryFromRow),
    // The embedded server runs one transaction at a time: a second locker waits before reaching Postgres.
    ...(testDatabase().embedded
      ? {}
      : { untilLockWaited: (stop: () => boolean) => untilLockWaited(sql, namespace, stop) }),
  };
}

describeStoreContract(`postgres store (${testDatabase().kind})`, makeStore);

describe("postgresStore transactions", () => {
  it("rolls back everything the callback wrote when it throws", async () => {
    const harness = await makeStore();
    const { store } = harness;
    const user = aUser();
    const failure = new Error("boom");
    await expect(
      store.transaction(async (repos) => {
        await repos.users.insert(user);
        await repos.audit.record({
          action: "user_signedup",
          actorId: user.id,
          actorUsername: "",
          at: new Date(),
        });
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect(await store.users.findById(user.id)).toBeNull();
    expect(await harness.auditEntries()).toEqual([]);
    await harness.cleanup();
  });

  it("commits what the callback wrote before returning an expected failure", async () => {
    const harness = await makeStore();
    const { store } = harness;
    const user = aUser();
    const result = await store.transaction(async (repos) => {
      await repos.users.insert(user);
      return { ok: false as const, error: "refresh_token_already_used" };
    });
    expect(result.ok).toBe(false);
    expect(await store.users.findById(user.id)).toEqual(user);
    await harness.cleanup();
  });

  it("throws (as a fault) a unique violation that is not about id, email or phone", async () => {
    const harness = await makeStore();
    const { store } = harness;
    const token = "a".repeat(64);
    await store.users.insert(aUser({ reauthenticationToken: token }));
    const other = aUser({ reauthenticationToken: token });
    await expect(store.users.insert(other)).rejects.toMatchObject({ code: "23505" });
    await expect(store.transaction((repos) => repos.users.insert(other))).rejects.toMatchObject({
      code: "23505",
    });
    expect(await store.users.findById(other.id)).toBeNull();
    await harness.cleanup();
  });

  it("answers input the database cannot store as validation_failed, and rolls the transaction back", async () => {
    const harness = await makeStore();
    const { store } = harness;
    const unstorable = aUser({ userMetadata: { note: "a\u0000b" } });
    const refusal = {
      failure: "unstorableValue",
      code: "validation_failed",
      message: "The request contains a value that cannot be stored",
    };
    await expect(store.users.insert(unstorable)).rejects.toMatchObject(refusal);
    const kept = aUser();
    await expect(
      store.transaction(async (repos) => {
        await repos.users.insert(kept);
        return repos.users.insert(unstorable);
      }),
    ).rejects.toMatchObject(refusal);
    expect(await store.users.findById(kept.id)).toBeNull();
    await harness.cleanup();
  });
});
