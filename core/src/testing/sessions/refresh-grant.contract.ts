import { describe, expect, it } from "vitest";
import type { RefreshGrantInput, RefreshTokenRecord } from "../../sessions/index.js";
import {
  aFullUser,
  anIdentity,
  aSession,
  aToken,
  at,
  type MakeStore,
  newHash,
  seedSession,
  seedUser,
  useStore,
} from "../harness.js";
import { aFactor } from "../mfa/factors.contract.js";

const INTERVAL_MS = 10_000;
const NO_LIMITS = { timeboxMs: 0, inactivityTimeoutMs: 0, singlePerUser: false };

/**
 * `SessionStore.grantRefresh`, the refresh grant's transition in one step: run against every
 * implementation (the fake follows `decideRefresh`; Postgres runs
 * migrations/functions/refresh_token_grant.sql).
 */
export function describeRefreshGrantContract(name: string, makeStore: MakeStore): void {
  describe(`SessionStore contract (refresh grant): ${name}`, () => {
    const harness = useStore(makeStore);
    const sessions = () => harness().store.sessions;

    async function chain() {
      const { store } = harness();
      const { user, session } = await seedSession(store);
      await store.identities.insert(anIdentity(user));
      const first = await sessions().insertToken(aToken(session));
      return { user, session, first };
    }
    const grant = (
      token: RefreshTokenRecord,
      childHash: string,
      when: Date,
      fields: Partial<RefreshGrantInput> = {},
    ) =>
      sessions().grantRefresh({
        tokenHash: token.tokenHash,
        childHash,
        now: when,
        rotationEnabled: true,
        reuseIntervalMs: INTERVAL_MS,
        limits: NO_LIMITS,
        ...fields,
      });
    const live = async (sessionId: string) => sessions().activeToken(sessionId);

    it("answers the token's session as stored before this refresh: its level, methods and times", async () => {
      const { store } = harness();
      const stored = {
        aal: "aal2" as const,
        amr: [
          { method: "password", timestamp: 1_700_000_000 },
          { method: "totp", timestamp: 1_700_000_060 },
        ],
        createdAt: at(1),
        updatedAt: at(2),
        refreshedAt: at(2),
        notAfter: at(50),
      };
      const { user, session } = await seedSession(store, stored);
      const first = await sessions().insertToken(aToken(session));
      const rotated = await grant(first, newHash(), at(5));
      expect(rotated).toMatchObject({ kind: "rotated", session: { ...session, ...stored, userId: user.id } });
      // The next refresh answers the session as this one left it.
      const child = await live(session.id);
      if (!child) throw new Error("no live token after the rotation");
      const next = await grant(child, newHash(), at(6));
      if (next.kind !== "rotated") throw new Error(`answered ${next.kind}`);
      expect(next.session).toEqual({ ...session, ...stored, updatedAt: at(5), refreshedAt: at(5) });
    });

    it("answers the user as it is at each refresh: its row with its secrets, its identities and factors", async () => {
      const { store } = harness();
      const user = await seedUser(store, aFullUser({ bannedUntil: null }));
      const session = aSession(user);
      await store.sessions.create(session);
      const email = anIdentity(user);
      await store.identities.insert(email);
      const first = await sessions().insertToken(aToken(session));
      const before = await grant(first, newHash(), at(20));
      if (before.kind !== "rotated") throw new Error(`answered ${before.kind}`);
      expect(before.user).toMatchObject({ ...user, identities: [email] });
      expect(before.user.factors ?? []).toEqual([]);
      // Changed between two refreshes: the row, a second identity, a factor.
      const changed = { ...user, userMetadata: { name: "Bob" }, phone: null, updatedAt: at(21) };
      expect(await store.users.update(changed)).toBe("updated");
      const github = anIdentity(user, { provider: "github", providerId: "gh-1", createdAt: at(1) });
      await store.identities.insert(github);
      const factor = aFactor(user.id, { friendlyName: "phone app", createdAt: at(2) });
      expect(await store.factors.insert(factor)).toBe("inserted");
      const child = await live(session.id);
      if (!child) throw new Error("no live token after the rotation");
      const after = await grant(child, newHash(), at(22));
      if (after.kind !== "rotated") throw new Error(`answered ${after.kind}`);
      expect(after.user).toMatchObject({ ...changed, identities: [email, github] });
      expect(after.user.factors?.map((f) => [f.id, f.friendlyName, f.status])).toEqual([
        [factor.id, "phone app", "unverified"],
      ]);
    });

    it("rotates a current token: revoked, its child inserted and active, two audit entries, session refreshed", async () => {
      const { user, session, first } = await chain();
      const child = newHash();
      const outcome = await grant(first, child, at(5));
      expect(outcome).toMatchObject({ kind: "rotated", session: { id: session.id }, user: { id: user.id } });
      if (outcome.kind !== "rotated") throw new Error("not rotated");
      expect(outcome.user.identities).toHaveLength(1);
      expect(await sessions().findTokenByHash(first.tokenHash)).toMatchObject({
        revoked: true,
        updatedAt: at(5),
      });
      expect(await live(session.id)).toMatchObject({
        tokenHash: child,
        parentId: first.id,
        createdAt: at(5),
      });
      expect(await sessions().find(session.id)).toMatchObject({ refreshedAt: at(5), updatedAt: at(5) });
      const actor = { actorId: user.id, actorUsername: user.email, at: at(5) };
      // One instant for both: their order among themselves is not defined.
      const entries = [...(await harness().auditEntries())].sort((a, b) => a.action.localeCompare(b.action));
      expect(entries).toEqual([
        { action: "token_refreshed", ...actor },
        { action: "token_revoked", ...actor },
      ]);
    });

    it("records the client's address on both audit entries of a rotation", async () => {
      const { first } = await chain();
      await grant(first, newHash(), at(5), { ipAddress: "198.51.100.23" });
      expect((await harness().auditEntries()).map((e) => [e.action, e.ipAddress]).sort()).toEqual([
        ["token_refreshed", "198.51.100.23"],
        ["token_revoked", "198.51.100.23"],
      ]);
    });

    it("reissues within the interval: the same child stays active, nothing inserted", async () => {
      const { session, first } = await chain();
      const child = newHash();
      await grant(first, child, at(5));
      // It answers the session as the rotation left it.
      expect(await grant(first, child, at(5 + INTERVAL_MS / 1000))).toMatchObject({
        kind: "reissued",
        session: { ...session, updatedAt: at(5), refreshedAt: at(5) },
      });
      expect(await live(session.id)).toMatchObject({ tokenHash: child, parentId: first.id });
      expect(await sessions().find(session.id)).toMatchObject({ refreshedAt: at(15) });
      expect((await harness().auditEntries()).length).toBe(2);
    });

    it("treats the previous token after the interval as reuse: descendants revoked, session deleted", async () => {
      const { session, first } = await chain();
      const child = newHash();
      await grant(first, child, at(5));
      expect(await grant(first, child, at(5 + INTERVAL_MS / 1000 + 1))).toEqual({ kind: "reused" });
      expect(await sessions().find(session.id)).toBeNull();
      expect(await sessions().findTokenByHash(child)).toBeNull();
    });

    it("treats an older token as reuse even within the interval", async () => {
      const { session, first } = await chain();
      const child = newHash();
      await grant(first, child, at(1));
      const [childRecord] = [await sessions().findTokenByHash(child)];
      if (!childRecord) throw new Error("no child");
      await grant(childRecord, newHash(), at(2));
      expect(await grant(first, child, at(3))).toEqual({ kind: "reused" });
      expect(await sessions().find(session.id)).toBeNull();
    });

    it("with rotation disabled refuses a revoked token and writes nothing", async () => {
      const { session, first } = await chain();
      const child = newHash();
      await grant(first, child, at(1));
      expect(await grant(first, child, at(2), { rotationEnabled: false })).toEqual({ kind: "refused" });
      expect(await live(session.id)).toMatchObject({ tokenHash: child });
      expect(await sessions().find(session.id)).toMatchObject({ refreshedAt: at(1) });
    });

    it("answers not_found for an unknown token or a deleted session, banned for a banned user", async () => {
      const { user, session, first } = await chain();
      expect(await grant({ ...first, tokenHash: newHash() }, newHash(), at(1))).toEqual({
        kind: "not_found",
      });
      await harness().store.users.update({ ...user, bannedUntil: at(10) });
      expect(await grant(first, newHash(), at(9))).toEqual({ kind: "banned" });
      expect(await live(session.id)).toMatchObject({ tokenHash: first.tokenHash });
      await sessions().delete(session.id);
      expect(await grant(first, newHash(), at(11))).toEqual({ kind: "not_found" });
    });

    it("refuses a session over the session controls and writes nothing", async () => {
      // The session was created at at(0) and never refreshed; the token last changed at at(0).
      const { user, session, first } = await chain();
      const limits = (l: Partial<typeof NO_LIMITS>) => ({ limits: { ...NO_LIMITS, ...l } });
      expect(await grant(first, newHash(), at(11), limits({ timeboxMs: 10_000 }))).toEqual({
        kind: "session_expired",
      });
      expect(
        await grant(first, newHash(), at(10), limits({ timeboxMs: 10_000, inactivityTimeoutMs: 5_000 })),
      ).toEqual({
        kind: "session_inactive",
      });
      const newer = aSession(user, { createdAt: at(3), updatedAt: at(3) });
      await sessions().create(newer);
      expect(await grant(first, newHash(), at(4), limits({ singlePerUser: true }))).toEqual({
        kind: "session_superseded",
      });
      // A newer session that has itself ended supersedes nothing.
      expect(
        await grant(first, newHash(), at(20), limits({ singlePerUser: true, timeboxMs: 16_000 })),
      ).toEqual({
        kind: "session_expired",
      });
      expect(await live(session.id)).toMatchObject({ tokenHash: first.tokenHash });
      expect(await sessions().find(session.id)).toMatchObject({ refreshedAt: null });
      expect(await grant(first, newHash(), at(4))).toMatchObject({ kind: "rotated" });
    });

    it("parallel refreshes of one token: one rotation, every answer the same child", async () => {
      const { session, first } = await chain();
      const child = newHash();
      const outcomes = await Promise.all(Array.from({ length: 8 }, () => grant(first, child, at(1))));
      expect(outcomes.filter((o) => o.kind === "rotated")).toHaveLength(1);
      expect(outcomes.filter((o) => o.kind === "reissued")).toHaveLength(7);
      expect(await live(session.id)).toMatchObject({ tokenHash: child, parentId: first.id });
      expect((await harness().auditEntries()).length).toBe(2);
    });

    // The reuse answer revokes the child while the child's own refresh may be rotating it. Were the
    // token locked before its session, each would hold what the other waits for (a deadlock, which
    // Postgres breaks by failing one of them).
    it("the previous token reused while its child is refreshed: both answer, the session ends", async () => {
      for (let round = 0; round < 6; round++) {
        const { session, first } = await chain();
        const child = newHash();
        await grant(first, child, at(1));
        const childRecord = await sessions().findTokenByHash(child);
        if (!childRecord) throw new Error("no child");
        const after = at(2 + INTERVAL_MS / 1000);
        const [reuse, rotation] = await Promise.all([
          grant(first, newHash(), after),
          grant(childRecord, newHash(), after),
        ]);
        expect(reuse).toEqual({ kind: "reused" });
        expect(["rotated", "not_found"]).toContain(rotation.kind);
        expect(await sessions().find(session.id)).toBeNull();
      }
    });
  });
}
