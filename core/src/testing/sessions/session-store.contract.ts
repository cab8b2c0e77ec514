import { describe, expect, it } from "vitest";
import {
  anIdentity,
  aSession,
  aToken,
  at,
  type MakeStore,
  newHash,
  newId,
  seedSession,
  seedUser,
  useStore,
} from "../harness.js";

/** The session half of the `SessionStore` contract; run it against every implementation. */
export function describeSessionStoreContract(name: string, makeStore: MakeStore): void {
  describe(`SessionStore contract (sessions): ${name}`, () => {
    const harness = useStore(makeStore);
    const sessions = () => harness().store.sessions;

    it("gives back a session exactly as created", async () => {
      const user = await seedUser(harness().store);
      const plain = aSession(user);
      const stepped = aSession(user, {
        aal: "aal2",
        amr: [
          { method: "totp", timestamp: 1_900_000_100 },
          { method: "password", timestamp: 1_900_000_000 },
        ],
        createdAt: at(1),
        updatedAt: at(2),
        refreshedAt: at(3),
        notAfter: at(4),
      });
      await sessions().create(plain);
      await sessions().create(stepped);
      expect(await sessions().find(plain.id)).toEqual(plain);
      expect(await sessions().find(stepped.id)).toEqual(stepped);
      expect(await harness().store.transaction((repos) => repos.sessions.lock(stepped.id))).toEqual(stepped);
    });

    it("creates a session with its first refresh token in one step, also inside a transaction", async () => {
      const user = await seedUser(harness().store);
      const session = aSession(user, { createdAt: at(7), updatedAt: at(7) });
      const tokenHash = newHash();
      await harness().store.transaction((repos) => repos.sessions.create(session, tokenHash));
      expect(await sessions().find(session.id)).toEqual(session);
      const first = await sessions().activeToken(session.id);
      expect(first).toEqual({
        id: expect.any(String),
        sessionId: session.id,
        userId: user.id,
        tokenHash,
        parentId: null,
        revoked: false,
        createdAt: at(7),
        updatedAt: at(7),
      });
      expect(await sessions().findTokenByHash(tokenHash)).toEqual(first);
    });

    it("reads the user with identities and the session together, as authenticating does", async () => {
      const { store } = harness();
      const { user, session } = await seedSession(store, { refreshedAt: at(3) });
      const identity = anIdentity(user);
      await store.identities.insert(identity);
      const both = await sessions().findUserAndSession(user.id, session.id);
      expect(both).toEqual({ user: { ...user, identities: [identity], factors: [] }, session });
      expect(await sessions().findUserAndSession(user.id, null)).toEqual({ ...both, session: null });
      expect((await sessions().findUserAndSession(user.id, newId())).session).toBeNull();
      await sessions().delete(session.id);
      expect((await sessions().findUserAndSession(user.id, session.id)).session).toBeNull();
      expect(await sessions().findUserAndSession(newId(), null)).toEqual({ user: null, session: null });
      expect(await sessions().findUserAndSession("not-a-uuid", "nor-this")).toEqual({
        user: null,
        session: null,
      });
    });

    it("finds nothing for an unknown or malformed id", async () => {
      await seedSession(harness().store);
      expect(await sessions().find(newId())).toBeNull();
      expect(await sessions().find("not-a-uuid")).toBeNull();
      expect(await harness().store.transaction((repos) => repos.sessions.lock(newId()))).toBeNull();
    });

    it("marks one session refreshed, which also changes its updatedAt", async () => {
      const { user, session } = await seedSession(harness().store);
      const other = aSession(user);
      await sessions().create(other);
      await sessions().markRefreshed(session.id, at(60));
      expect(await sessions().find(session.id)).toEqual({
        ...session,
        refreshedAt: at(60),
        updatedAt: at(60),
      });
      expect(await sessions().find(other.id)).toEqual(other);
    });

    it("deletes one session with its refresh tokens", async () => {
      const { user, session } = await seedSession(harness().store);
      const other = aSession(user);
      await sessions().create(other);
      const token = await sessions().insertToken(aToken(session));
      const kept = await sessions().insertToken(aToken(other));
      expect(await sessions().delete(session.id)).toBe(true);
      expect(await sessions().find(session.id)).toBeNull();
      expect(await sessions().findTokenByHash(token.tokenHash)).toBeNull();
      expect(await sessions().activeToken(other.id)).toEqual(kept);
      expect(await sessions().delete(session.id)).toBe(false);
      expect(await sessions().delete("not-a-uuid")).toBe(false);
    });

    it("deletes all sessions of a user (with their tokens) and no one else's", async () => {
      const { store } = harness();
      const { user, session } = await seedSession(store);
      const second = aSession(user);
      await sessions().create(second);
      const token = await sessions().insertToken(aToken(second));
      const { session: stranger } = await seedSession(store);
      expect(await sessions().deleteForUser(user.id)).toBe(2);
      expect(await sessions().find(session.id)).toBeNull();
      expect(await sessions().find(second.id)).toBeNull();
      expect(await sessions().findTokenByHash(token.tokenHash)).toBeNull();
      expect(await sessions().find(stranger.id)).toEqual(stranger);
      expect(await sessions().deleteForUser(user.id)).toBe(0);
    });

    it("deletes all but the excepted session, which keeps its tokens", async () => {
      const { user, session: current } = await seedSession(harness().store);
      const others = [aSession(user), aSession(user)];
      for (const s of others) await sessions().create(s);
      const token = await sessions().insertToken(aToken(current));
      expect(await sessions().deleteForUser(user.id, { except: current.id })).toBe(2);
      expect(await sessions().find(current.id)).toEqual(current);
      expect(await sessions().activeToken(current.id)).toEqual(token);
      for (const s of others) expect(await sessions().find(s.id)).toBeNull();
    });

    it("lists a user's sessions oldest first, and no one else's", async () => {
      const { store } = harness();
      const { user, session: middle } = await seedSession(store, { createdAt: at(10), updatedAt: at(10) });
      const newest = aSession(user, { createdAt: at(20), updatedAt: at(20), refreshedAt: at(25) });
      const oldest = aSession(user, { createdAt: at(5), updatedAt: at(5), notAfter: at(50) });
      await sessions().create(newest);
      await sessions().create(oldest);
      await seedSession(store);
      expect(await sessions().listForUser(user.id)).toEqual([oldest, middle, newest]);
      expect(await sessions().listForUser(newId())).toEqual([]);
      expect(await sessions().listForUser("not-a-uuid")).toEqual([]);
      expect(await store.transaction((repos) => repos.sessions.listForUser(user.id))).toHaveLength(3);
    });
  });
}
