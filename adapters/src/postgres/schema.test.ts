import { createHash, randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FreshNamespace, migratedNamespace } from "../testing/database.js";

/** What the schema of 0001_initial promises, independent of any adapter code. */
describe("schema 0001_initial", () => {
  let db: FreshNamespace;
  beforeAll(async () => {
    db = await migratedNamespace();
  });
  afterAll(() => db?.drop());

  const t = (table: string) => db.sql(`${db.namespace}.${table}`);

  async function insertUser(fields: { email?: string | null; phone?: string | null; is_sso_user?: boolean }) {
    const [user] = await db.sql<{ id: string }[]>`
      insert into ${t("users")} ${db.sql({ aud: "authenticated", role: "authenticated", email: null, ...fields })}
      returning id
    `;
    return (user as { id: string }).id;
  }

  /** The SQLSTATE a statement fails with, or null. */
  async function failure(statement: Promise<unknown>): Promise<string | null> {
    try {
      await statement;
      return null;
    } catch (error) {
      return (error as { code?: string }).code ?? String(error);
    }
  }

  const hash = (s: string) => createHash("sha256").update(s).digest("hex");

  it("rejects a second non-SSO user with the same email, allows SSO users to share it", async () => {
    const email = `${randomUUID()}@example.com`;
    await insertUser({ email });
    expect(await failure(insertUser({ email }))).toBe("23505");
    await insertUser({ email, is_sso_user: true });
    await insertUser({ email, is_sso_user: true });
  });

  it("stores emails lowercased only", async () => {
    expect(await failure(insertUser({ email: `${randomUUID()}@Example.com` }))).toBe("23514");
  });

  it("rejects a second user with the same phone", async () => {
    const phone = `1${Date.now()}`;
    await insertUser({ phone });
    expect(await failure(insertUser({ phone }))).toBe("23505");
  });

  it("derives confirmed_at from the earlier of the email and phone confirmations", async () => {
    const id = await insertUser({ email: `${randomUUID()}@example.com` });
    const [before] = await db.sql`select confirmed_at from ${t("users")} where id = ${id}`;
    const [after] = await db.sql`
      update ${t("users")}
      set email_confirmed_at = '2030-01-02T00:00:00Z', phone_confirmed_at = '2030-01-01T00:00:00Z'
      where id = ${id}
      returning confirmed_at
    `;
    expect(before?.confirmed_at).toBeNull();
    expect(after?.confirmed_at).toEqual(new Date("2030-01-01T00:00:00Z"));
  });

  it("rejects a second identity with the same (provider_id, provider) and lowercases its email", async () => {
    const alice = await insertUser({ email: `${randomUUID()}@example.com` });
    const bob = await insertUser({ email: `${randomUUID()}@example.com` });
    const identity = (user_id: string, provider: string) =>
      db.sql`
        insert into ${t("identities")} ${db.sql({
          provider_id: "gh-42",
          user_id,
          provider,
          identity_data: db.sql.json({ sub: "gh-42", email: "Alice@Example.COM" }),
        })}
        returning email
      `;
    const [first] = await identity(alice, "github");
    expect(first?.email).toBe("alice@example.com");
    expect(await failure(identity(bob, "github"))).toBe("23505");
    await identity(bob, "gitlab");
  });

  it("keeps one one-time token per user and type", async () => {
    const user_id = await insertUser({ email: `${randomUUID()}@example.com` });
    const token = (token_type: string, token_hash: string) =>
      db.sql`
        insert into ${t("one_time_tokens")} ${db.sql({ user_id, token_type, token_hash, relates_to: "a@b.c" })}
      `;
    await token("confirmation_token", hash("1"));
    expect(await failure(token("confirmation_token", hash("2")))).toBe("23505");
    await token("recovery_token", hash("3"));
    expect(await failure(token("no_such_type", hash("4")))).toBe("22P02");
  });

  it("stores refresh tokens by unique SHA-256 hex hash and chains them to their parent", async () => {
    const user_id = await insertUser({ email: `${randomUUID()}@example.com` });
    const [session] = await db.sql<{ id: string }[]>`
      insert into ${t("sessions")} ${db.sql({ user_id, aal: "aal1" })} returning id
    `;
    const session_id = (session as { id: string }).id;
    const insert = async (token_hash: string, parent_id: string | null) => {
      const [row] = await db.sql<{ id: string }[]>`
        insert into ${t("refresh_tokens")} ${db.sql({ token_hash, user_id, session_id, parent_id })} returning id
      `;
      return (row as { id: string }).id;
    };
    const first = await insert(hash("a"), null);
    const second = await insert(hash("b"), first);
    expect(await failure(insert(hash("a"), null))).toBe("23505");
    expect(await failure(insert("not-a-hash", null))).toBe("23514");
    const [child] = await db.sql`select parent_id from ${t("refresh_tokens")} where id = ${second}`;
    expect(child?.parent_id).toBe(first);
    // Deleting the session takes its whole token family with it.
    await db.sql`delete from ${t("sessions")} where id = ${session_id}`;
    const left = await db.sql`select 1 from ${t("refresh_tokens")} where id in (${first}, ${second})`;
    expect(left).toHaveLength(0);
  });

  it("deletes a user's identities, sessions and tokens with the user", async () => {
    const user_id = await insertUser({ email: `${randomUUID()}@example.com` });
    await db.sql`insert into ${t("sessions")} ${db.sql({ user_id })}`;
    await db.sql`
      insert into ${t("one_time_tokens")} ${db.sql({ user_id, token_type: "recovery_token", token_hash: "x", relates_to: "x" })}
    `;
    await db.sql`delete from ${t("users")} where id = ${user_id}`;
    const [counts] = await db.sql`
      select
        (select count(*) from ${t("sessions")} where user_id = ${user_id})::int as sessions,
        (select count(*) from ${t("one_time_tokens")} where user_id = ${user_id})::int as tokens
    `;
    expect(counts).toEqual({ sessions: 0, tokens: 0 });
  });
});
