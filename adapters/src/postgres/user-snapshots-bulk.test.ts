import { aFactor, aFullUser } from "@authsvc/core/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FreshNamespace, migratedNamespace, testDatabase } from "../testing/database.js";
import type { Queryable } from "./rows.js";
import { postgresStore } from "./store.js";

// user_snapshots_flush() and user_snapshots_flush_users(users) (migrations/functions/): a bulk write
// of users ends with one set-wise rewrite of the snapshots of migration 0013 instead of one trigger
// call per row at commit, and leaves every snapshot as the row triggers would have.

let db: FreshNamespace;
beforeAll(async () => {
  db = await migratedNamespace({ maxPoolSize: 4 });
});
afterAll(() => db?.drop());

const t = (table: string) => db.sql`${db.sql(db.namespace)}.${db.sql(table)}`;
const fn = (name: string) => db.sql`${db.sql(db.namespace)}.${db.sql(name)}`;

/** Inserts `count` users named `<prefix>-<n>@example.com`, each with an email identity. */
async function bulkInsert(sql: Queryable, prefix: string, count: number) {
  await sql`
    insert into ${t("users")} (id, aud, role, email, raw_user_meta_data, created_at, updated_at)
    select gen_random_uuid(), 'authenticated', 'authenticated', ${prefix} || '-' || g || '@example.com',
      jsonb_build_object('n', g), now(), now()
    from generate_series(1, ${count}) g
  `;
  await sql`
    insert into ${t("identities")} (provider_id, user_id, identity_data, provider)
    select id::text, id, jsonb_build_object('sub', id, 'email', email), 'email'
    from ${t("users")} where email like ${`${prefix}-%`}
  `;
}

/**
 * The users named `<prefix>-…`: whether each has a snapshot made from its row as it is, and whether
 * that snapshot reads exactly as the one a single writer builds now (user_snapshot_body).
 */
async function snapshotsOf(prefix: string) {
  return db.sql<{ email: string; current: boolean | null; same: boolean | null }[]>`
    select
      u.email,
      s.user_xmin = u.xmin as current,
      s.body::text = ${fn("user_snapshot_body")}(u.id)::text as same
    from ${t("users")} u
    left join ${t("user_snapshots")} s on s.user_id = u.id
    where u.email like ${`${prefix}-%`}
    order by u.email
  `;
}

describe("user_snapshots_flush: a bulk write's snapshots, set-wise", () => {
  it("writes every user's snapshot, current and as a single writer builds it, identities and factors included", async () => {
    const withFactor = await db.sql.begin(async (tx) => {
      await bulkInsert(tx, "bulk-a", 250);
      const [user] = await tx`select id from ${t("users")} where email = 'bulk-a-7@example.com'`;
      const factor = aFactor(user?.id as string);
      await tx`
        insert into ${t("mfa_factors")} (id, user_id, friendly_name, factor_type, status, created_at, updated_at, secret)
        values (${factor.id}, ${user?.id as string}, 'laptop', 'totp', 'verified', now(), now(), 'sealed')
      `;
      await tx`update ${t("users")} set raw_app_meta_data = '{"provider":"email"}' where email like 'bulk-a-1%'`;
      await tx`select ${fn("user_snapshots_flush")}()`;
      return factor.id;
    });
    const rows = await snapshotsOf("bulk-a");
    expect(rows).toHaveLength(250);
    expect(rows.filter((r) => !r.current || !r.same)).toEqual([]);
    const [seven] = await db.sql`
      select s.body from ${t("user_snapshots")} s join ${t("users")} u on u.id = s.user_id
      where u.email = 'bulk-a-7@example.com'
    `;
    const body = seven?.body as { identities: { provider: string }[]; factors: { id: string }[] };
    expect(body.identities.map((i) => i.provider)).toEqual(["email"]);
    expect(body.factors.map((f) => f.id)).toEqual([withFactor]);
    // No secret copied: the factor's secret stays in its table.
    expect(JSON.stringify(body)).not.toContain("sealed");
  });

  it("changes after the flush, in the same transaction, are followed row by row again", async () => {
    await db.sql.begin(async (tx) => {
      await bulkInsert(tx, "bulk-b", 20);
      await tx`select ${fn("user_snapshots_flush")}()`;
      await tx`update ${t("users")} set raw_user_meta_data = '{"late":true}' where email = 'bulk-b-3@example.com'`;
      await tx`
        insert into ${t("identities")} (provider_id, user_id, identity_data, provider)
        select 'gh-' || id, id, '{}', 'github' from ${t("users")} where email = 'bulk-b-4@example.com'
      `;
    });
    const rows = await snapshotsOf("bulk-b");
    expect(rows).toHaveLength(20);
    expect(rows.filter((r) => !r.current || !r.same)).toEqual([]);
    const [four] = await db.sql`
      select s.body from ${t("user_snapshots")} s join ${t("users")} u on u.id = s.user_id
      where u.email = 'bulk-b-4@example.com'
    `;
    expect((four?.body as { identities: unknown[] } | undefined)?.identities).toHaveLength(2);
  });

  it("a user deleted in the bulk write, before or after the flush, has no snapshot left", async () => {
    await db.sql.begin(async (tx) => {
      await bulkInsert(tx, "bulk-c", 10);
      await tx`delete from ${t("users")} where email = 'bulk-c-1@example.com'`;
      await tx`select ${fn("user_snapshots_flush")}()`;
      await tx`delete from ${t("users")} where email = 'bulk-c-2@example.com'`;
    });
    expect(await snapshotsOf("bulk-c")).toHaveLength(8);
    const [orphans] = await db.sql`
      select count(*)::int as n from ${t("user_snapshots")} s
      where not exists (select 1 from ${t("users")} u where u.id = s.user_id)
    `;
    expect(orphans?.n).toBe(0);
  });

  it("a transaction that never flushes keeps the row triggers' behaviour", async () => {
    await db.sql.begin((tx) => bulkInsert(tx, "bulk-d", 15));
    const rows = await snapshotsOf("bulk-d");
    expect(rows.filter((r) => !r.current || !r.same)).toEqual([]);
    // The setting that makes the row triggers skip lives only inside the flush.
    const [setting] = await db.sql`select current_setting('authsvc.user_snapshots_bulk', true) as value`;
    expect(setting?.value ?? "").toBe("");
  });

  it("user_snapshots_flush_users writes the named users' snapshots, rows written in savepoints included", async () => {
    const gone = "00000000-0000-4000-8000-00000000dead";
    await db.sql.begin(async (tx) => {
      // Savepoints as an import's batch takes them: their rows carry the subtransaction's id, which
      // user_snapshots_flush does not find.
      await tx.savepoint((sp) => bulkInsert(sp, "bulk-g", 30));
      await tx
        .savepoint(async (sp) => {
          await bulkInsert(sp, "bulk-h", 3);
          throw new Error("refused");
        })
        .catch(() => undefined);
      const named = await tx<{ id: string }[]>`select id from ${t("users")} where email like 'bulk-g-%'`;
      await tx`select ${fn("user_snapshots_flush_users")}(${[...named.map((r) => r.id), gone]}::uuid[])`;
    });
    const rows = await snapshotsOf("bulk-g");
    expect(rows).toHaveLength(30);
    expect(rows.filter((r) => !r.current || !r.same)).toEqual([]);
    expect(await snapshotsOf("bulk-h")).toEqual([]);
    const [ghost] =
      await db.sql`select count(*)::int as n from ${t("user_snapshots")} where user_id = ${gone}`;
    expect(ghost?.n).toBe(0);
  });

  it("user_snapshots_flush_users with no users still leaves later changes to the row triggers", async () => {
    await db.sql.begin(async (tx) => {
      await tx`select ${fn("user_snapshots_flush_users")}('{}'::uuid[])`;
      await bulkInsert(tx, "bulk-i", 5);
    });
    const rows = await snapshotsOf("bulk-i");
    expect(rows).toHaveLength(5);
    expect(rows.filter((r) => !r.current || !r.same)).toEqual([]);
  });

  it("is the owner's only: another role may not call it", async () => {
    const role = `bulk_stranger_${db.namespace}`;
    await db.sql.unsafe(`create role ${role}`);
    try {
      // The role may use the schema: what it is refused is executing the function.
      const asStranger = (call: string) =>
        db.sql.begin(async (tx) => {
          await tx.unsafe(`grant usage on schema ${db.namespace} to ${role}`);
          await tx.unsafe(`set local role ${role}`);
          await tx.unsafe(`select ${db.namespace}.${call}`);
        });
      await expect(asStranger("user_snapshots_flush()")).rejects.toMatchObject({
        code: "42501",
        message: expect.stringContaining("function user_snapshots_flush"),
      });
      await expect(asStranger("user_snapshots_flush_users('{}'::uuid[])")).rejects.toMatchObject({
        code: "42501",
        message: expect.stringContaining("function user_snapshots_flush_users"),
      });
    } finally {
      await db.sql.unsafe(`drop owned by ${role}`);
      await db.sql.unsafe(`drop role ${role}`);
    }
  });

  // Another transaction commits a change to a user while the bulk write holds it: the flush, which
  // builds the bodies after locking the snapshot rows, includes it. (The embedded server runs one
  // transaction at a time: the interleaving cannot happen there.)
  it.skipIf(testDatabase().embedded)(
    "includes what another transaction committed for the same user before the flush",
    async () => {
      const store = postgresStore(db.sql, { namespace: db.namespace });
      const user = aFullUser({ email: "bulk-e-1@example.com", bannedUntil: null });
      expect(await store.users.insert(user)).toBe("inserted");
      const tx = await db.sql.reserve();
      try {
        await tx`begin`;
        await tx`update ${t("users")} set raw_user_meta_data = '{"bulk":true}' where id = ${user.id}`;
        await bulkInsert(tx, "bulk-f", 5);
        // Not blocked: adding an identity only shares the user row's key lock.
        await db.sql`
          insert into ${t("identities")} (provider_id, user_id, identity_data, provider)
          values (${`gl-${user.id}`}, ${user.id}, '{}', 'gitlab')
        `;
        await tx`select ${fn("user_snapshots_flush")}()`;
        await tx`commit`;
      } finally {
        tx.release();
      }
      const rows = await snapshotsOf("bulk-e");
      expect(rows).toEqual([{ email: "bulk-e-1@example.com", current: true, same: true }]);
      const [row] = await db.sql`select body from ${t("user_snapshots")} where user_id = ${user.id}`;
      const body = row?.body as { raw_user_meta_data: unknown; identities: { provider: string }[] };
      expect(body.raw_user_meta_data).toEqual({ bulk: true });
      expect(body.identities.map((i) => i.provider)).toContain("gitlab");
    },
  );
});
