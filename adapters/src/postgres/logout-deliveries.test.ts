import type { Repositories } from "@authsvc/core";
import { anOAuthClient, aSession, aUser } from "@authsvc/core/testing";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type FreshNamespace, migratedNamespace } from "../testing/database.js";
import { sessionsPastNotAfter } from "./cleanup/tasks/ended-sessions.js";
import { postgresLogoutDeliveries } from "./logout-deliveries.js";
import { postgresStore } from "./store.js";

/**
 * The outbox of back-channel logouts on PostgreSQL: the sessions trigger records every end of a
 * client's session in the ending transaction, on each class of path (a session's or a user's
 * sessions' deletion, a grant's revocation, a client's deletion, a user's deletion, a ban), and
 * nothing for a rollback, a first-party session, a client without a back-channel URI or the cleanup
 * of long-ended sessions; claims share the rows between senders.
 */
let db: FreshNamespace;
beforeAll(async () => {
  db = await migratedNamespace();
});
afterAll(() => db?.drop());

const URI = "https://rp.example/backchannel";
const at = (seconds: number) => new Date(Date.UTC(2030, 0, 1) + seconds * 1000);
async function seedUser(s: Repositories) {
  const user = aUser();
  expect(await s.users.insert(user)).toBe("inserted");
  return user;
}
const store = () => postgresStore(db.sql, { namespace: db.namespace });
const recorded = async () =>
  (
    await db.sql<{ session_id: string; client_id: string; uri: string }[]>`
      select session_id, client_id, uri from ${db.sql(db.namespace)}.oauth_logout_deliveries order by created_at`
  ).map((r) => ({ sessionId: r.session_id, clientId: r.client_id, uri: r.uri }));

beforeEach(async () => {
  const t = (table: string) => db.sql`${db.sql(db.namespace)}.${db.sql(table)}`;
  await db.sql`truncate ${t("users")}, ${t("oauth_logout_deliveries")}, ${t("oauth_clients")} cascade`;
});

/** A client with a back-channel URI (or none), a user and `n` sessions of the user with it. */
async function clientSessions(n = 1, uri: string | null = URI) {
  const s = store();
  const client = anOAuthClient({ backchannelLogoutUri: uri });
  await s.oauthClients.insert(client);
  const user = await seedUser(s);
  const sessions = [];
  for (let i = 0; i < n; i++) {
    const session = aSession(user, { oauthClientId: client.id, scopes: "openid" });
    await s.sessions.create(session);
    sessions.push(session);
  }
  return { s, client, user, sessions };
}

describe("the sessions trigger", () => {
  it("records a deleted session of a client with a back-channel URI, with the URI, once", async () => {
    const { s, client, sessions } = await clientSessions();
    const [session] = sessions;
    await s.sessions.delete(session?.id ?? "");
    expect(await recorded()).toEqual([{ sessionId: session?.id, clientId: client.id, uri: URI }]);
  });

  it("records every session a user's sign-out or a password change ends", async () => {
    const { s, user, sessions } = await clientSessions(3);
    await s.sessions.deleteForUser(user.id, { except: sessions[0]?.id ?? "" });
    expect((await recorded()).map((r) => r.sessionId).sort()).toEqual(
      [sessions[1]?.id, sessions[2]?.id].sort(),
    );
  });

  it("records the sessions a grant's revocation, a client's deletion and a user's deletion end", async () => {
    const first = await clientSessions();
    await first.s.oauthConsents.approve({
      id: crypto.randomUUID(),
      userId: first.user.id,
      clientId: first.client.id,
      scopes: "openid",
      resources: [],
      grantedAt: at(0),
      revokedAt: null,
    });
    expect(await first.s.oauthConsents.revoke(first.user.id, first.client.id, at(1))).toBe(true);
    const second = await clientSessions();
    expect(await second.s.oauthClients.softDelete(second.client.id, at(1))).toBe(true);
    const third = await clientSessions();
    expect(await third.s.users.delete(third.user.id)).toBe(true);
    expect((await recorded()).map((r) => r.sessionId)).toEqual(
      [first, second, third].map((x) => x.sessions[0]?.id),
    );
  });

  it("records the sessions a ban revokes, and not again when they are deleted later", async () => {
    const { s, user, sessions } = await clientSessions(2);
    await s.sessions.revokeAllForUser(user.id, at(1));
    expect(await recorded()).toHaveLength(2);
    await s.sessions.deleteForUser(user.id);
    expect((await recorded()).map((r) => r.sessionId).sort()).toEqual(sessions.map((x) => x.id).sort());
  });

  it("records nothing for a rollback, a first-party session, a client without a URI, or the cleanup", async () => {
    const { s, sessions } = await clientSessions();
    await expect(
      s.transaction(async (repos) => {
        await repos.sessions.delete(sessions[0]?.id ?? "");
        throw new Error("rolled back");
      }),
    ).rejects.toThrow("rolled back");
    const user = await seedUser(s);
    const firstParty = aSession(user);
    await s.sessions.create(firstParty);
    await s.sessions.delete(firstParty.id);
    const silent = await clientSessions(1, null);
    await s.sessions.delete(silent.sessions[0]?.id ?? "");
    const old = await clientSessions();
    await db.sql`update ${db.sql(db.namespace)}.sessions set not_after = now() - interval '2 days' where id = ${old.sessions[0]?.id ?? ""}`;
    const removed = await db.sql.begin((tx) =>
      sessionsPastNotAfter(86_400_000).run({ sql: tx, namespace: db.namespace, limit: 100 }),
    );
    expect(removed).toBe(1);
    expect(await recorded()).toEqual([]);
    // A later deletion in the same connection is recorded again: the cleanup's mark was its transaction's.
    await s.sessions.delete(sessions[0]?.id ?? "");
    expect(await recorded()).toHaveLength(1);
  });
});

describe("postgresLogoutDeliveries", () => {
  it("claims due rows once among concurrent senders, per client at most perClient, and retries or removes them", async () => {
    const { s, user } = await clientSessions(5);
    await s.sessions.deleteForUser(user.id);
    const deliveries = postgresLogoutDeliveries(db.sql, { namespace: db.namespace });
    const now = new Date(Date.now() + 1000);
    const leaseUntil = new Date(now.getTime() + 60_000);
    const claims = await Promise.all(
      [1, 2, 3].map(() => deliveries.claim({ now, leaseUntil, limit: 10, perClient: 2 })),
    );
    const ids = claims.flat().map((d) => d.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.length).toBeLessThanOrEqual(5);
    for (const claim of claims) expect(claim.length).toBeLessThanOrEqual(2);
    expect(claims.flat().every((d) => d.attempts === 0 && d.uri === URI && d.userId === user.id)).toBe(true);
    // Held until the lease ends: not claimed again now.
    const rest = await deliveries.claim({ now, leaseUntil, limit: 10, perClient: 5 });
    expect(rest.map((d) => d.id).filter((id) => ids.includes(id))).toEqual([]);
    const [first, second] = claims.flat();
    await deliveries.remove(first?.id ?? "");
    await deliveries.retryAt(second?.id ?? "", now);
    const again = await deliveries.claim({ now, leaseUntil, limit: 10, perClient: 5 });
    expect(again.map((d) => ({ id: d.id, attempts: d.attempts }))).toEqual([{ id: second?.id, attempts: 1 }]);
  });
});
