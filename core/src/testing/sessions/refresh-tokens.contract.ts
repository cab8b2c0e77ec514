import { describe, expect, it } from "vitest";
import type { RefreshTokenRecord, Session, SessionStore } from "../../sessions/index.js";
import { aSession, aToken, at, type MakeStore, newHash, newId, seedSession, useStore } from "../harness.js";

/** The refresh-token half of the `SessionStore` contract; run it against every implementation. */
export function describeRefreshTokenContract(name: string, makeStore: MakeStore): void {
  describe(`SessionStore contract (refresh tokens): ${name}`, () => {
    const harness = useStore(makeStore);
    const sessions = () => harness().store.sessions;

    /** A rotation: revokes `parent` at `when` and inserts its child, as a refresh does. */
    async function rotate(store: SessionStore, session: Session, parent: RefreshTokenRecord, when: Date) {
      await store.revokeToken(parent.id, when);
      return store.insertToken(aToken(session, { parentId: parent.id, createdAt: when, updatedAt: when }));
    }

    /** The token as stored now (found by its hash). */
    const reread = async (token: RefreshTokenRecord) => sessions().findTokenByHash(token.tokenHash);

    it("inserts a token with a fresh id and finds it by hash", async () => {
      const { session } = await seedSession(harness().store);
      const fields = aToken(session, { createdAt: at(1), updatedAt: at(2) });
      const first = await sessions().insertToken(fields);
      const child = await sessions().insertToken(aToken(session, { parentId: first.id }));
      expect(first).toEqual({ ...fields, id: first.id });
      expect(typeof first.id).toBe("string");
      expect(child.id).not.toBe(first.id);
      expect(await sessions().findTokenByHash(fields.tokenHash)).toEqual(first);
      expect(await sessions().findTokenByHash(child.tokenHash)).toEqual(child);
      expect(await sessions().findTokenByHash(newHash())).toBeNull();
    });

    it("answers the newest non-revoked token as active, null once all are revoked", async () => {
      const { session } = await seedSession(harness().store);
      expect(await sessions().activeToken(session.id)).toBeNull();
      const first = await sessions().insertToken(aToken(session));
      expect(await sessions().activeToken(session.id)).toEqual(first);
      const second = await rotate(sessions(), session, first, at(10));
      expect(await sessions().activeToken(session.id)).toEqual(second);
      await sessions().revokeToken(second.id, at(20));
      expect(await sessions().activeToken(session.id)).toBeNull();
      expect(await sessions().activeToken(newId())).toBeNull();
      expect(await sessions().activeToken("not-a-uuid")).toBeNull();
    });

    it("revokes one token, stamping updatedAt with the revocation time", async () => {
      const { session } = await seedSession(harness().store);
      const token = await sessions().insertToken(aToken(session));
      const sibling = await sessions().insertToken(aToken(session));
      await sessions().revokeToken(token.id, at(30));
      expect(await reread(token)).toEqual({ ...token, revoked: true, updatedAt: at(30) });
      expect(await reread(sibling)).toEqual(sibling);
    });

    it("revokes every descendant of a token, and neither it, its ancestors nor other sessions", async () => {
      const { store } = harness();
      const { user, session } = await seedSession(store);
      const root = await sessions().insertToken(aToken(session));
      const reused = await rotate(sessions(), session, root, at(1));
      // Two children of `reused`: a refresh within the reuse interval issues a second child.
      const childA = await rotate(sessions(), session, reused, at(2));
      const childB = await sessions().insertToken(aToken(session, { parentId: reused.id }));
      const grandchild = await rotate(sessions(), session, childA, at(3));
      const greatGrandchild = await rotate(sessions(), session, grandchild, at(4));
      const otherSession = aSession(user);
      await sessions().create(otherSession);
      const elsewhere = await sessions().insertToken(aToken(otherSession));

      // childA and grandchild were already revoked by their rotations: only the live ones count, and the
      // revoked ones keep the time of their rotation.
      expect(await sessions().revokeDescendants(reused.id, at(99))).toBe(2);
      expect(await reread(childB)).toMatchObject({ revoked: true, updatedAt: at(99) });
      expect(await reread(greatGrandchild)).toMatchObject({ revoked: true, updatedAt: at(99) });
      expect(await reread(childA)).toMatchObject({ revoked: true, updatedAt: at(3) });
      expect(await reread(grandchild)).toMatchObject({ revoked: true, updatedAt: at(4) });
      expect(await reread(reused)).toMatchObject({ revoked: true, updatedAt: at(2) });
      expect(await reread(root)).toMatchObject({ revoked: true, updatedAt: at(1) });
      expect(await reread(elsewhere)).toEqual(elsewhere);
      expect(await sessions().activeToken(session.id)).toBeNull();
      expect(await sessions().revokeDescendants(reused.id, at(100))).toBe(0);
    });

    it("revokes nothing below a token without children", async () => {
      const { session } = await seedSession(harness().store);
      const parent = await sessions().insertToken(aToken(session));
      const leaf = await rotate(sessions(), session, parent, at(1));
      expect(await sessions().revokeDescendants(leaf.id, at(2))).toBe(0);
      expect(await reread(leaf)).toEqual(leaf);
      expect(await reread(parent)).toMatchObject({ revoked: true, updatedAt: at(1) });
    });

    it("revokes all live tokens of a user across sessions, and only theirs", async () => {
      const { store } = harness();
      const { user, session } = await seedSession(store);
      const second = aSession(user);
      await sessions().create(second);
      const old = await sessions().insertToken(aToken(session));
      const live = await rotate(sessions(), session, old, at(1));
      const liveToo = await sessions().insertToken(aToken(second));
      const { session: strangers } = await seedSession(store);
      const stranger = await sessions().insertToken(aToken(strangers));

      expect(await sessions().revokeAllForUser(user.id, at(50))).toBe(2);
      expect(await reread(live)).toMatchObject({ revoked: true, updatedAt: at(50) });
      expect(await reread(liveToo)).toMatchObject({ revoked: true, updatedAt: at(50) });
      expect(await reread(old)).toMatchObject({ revoked: true, updatedAt: at(1) });
      expect(await reread(stranger)).toEqual(stranger);
      expect(await sessions().revokeAllForUser(user.id, at(51))).toBe(0);
      // The sessions themselves stay: a ban revokes tokens, it does not sign the user out elsewhere.
      expect(await sessions().find(second.id)).not.toBeNull();
    });
  });
}
