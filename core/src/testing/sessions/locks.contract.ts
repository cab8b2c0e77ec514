import { describe, expect, it } from "vitest";
import type { Repositories } from "../../store.js";
import { aToken, at, gate, type MakeStore, seedSession, seedUser, useStore } from "../harness.js";

/**
 * The locking half of the `UserRepository` and `SessionStore` contracts: `lock` holds the row until the
 * transaction ends, so two transactions that lock one row run one after the other.
 */
export function describeLockContract(name: string, makeStore: MakeStore): void {
  describe(`row lock contract: ${name}`, () => {
    const harness = useStore(makeStore);

    /**
     * Runs `first` (which locks a row and writes) and keeps its transaction open until `second` (which
     * locks the same row) provably waits for it; then lets `first` commit. Answers what `second` read.
     */
    async function oneAfterTheOther<T>(
      first: (repos: Repositories) => Promise<void>,
      second: (repos: Repositories) => Promise<T>,
    ): Promise<{ read: T; order: string[] }> {
      const { store, untilLockWaited } = harness();
      const wrote = gate();
      const release = gate();
      const order: string[] = [];
      const firstDone = store.transaction(async (repos) => {
        await first(repos);
        wrote.open();
        await release.opened;
        order.push("first done");
      });
      await Promise.race([wrote.opened, firstDone]);
      let secondSettled = false;
      const secondDone = store
        .transaction(async (repos) => {
          const read = await second(repos);
          order.push("second read");
          return read;
        })
        .finally(() => {
          secondSettled = true;
        });
      // Without a real lock the second transaction finishes on its own, having read the old row.
      await untilLockWaited?.(() => secondSettled);
      release.open();
      const [, read] = await Promise.all([firstDone, secondDone]);
      return { read, order };
    }

    it("makes a second locker of a session wait for the first to commit, then see its writes", async () => {
      const { store } = harness();
      const { session } = await seedSession(store);
      const t0 = await store.sessions.insertToken(aToken(session));
      let t1Id = "";
      const { read, order } = await oneAfterTheOther(
        async (repos) => {
          await repos.sessions.lock(session.id);
          await repos.sessions.revokeToken(t0.id, at(5));
          t1Id = (await repos.sessions.insertToken(aToken(session, { parentId: t0.id }))).id;
          await repos.sessions.markRefreshed(session.id, at(5));
        },
        async (repos) => ({
          session: await repos.sessions.lock(session.id),
          active: await repos.sessions.activeToken(session.id),
        }),
      );
      expect(order).toEqual(["first done", "second read"]);
      expect(read.session?.refreshedAt).toEqual(at(5));
      expect(read.active?.id).toBe(t1Id);
    });

    it("makes a second locker of a user wait for the first to commit, then see its writes", async () => {
      const user = await seedUser(harness().store);
      const { read, order } = await oneAfterTheOther(
        async (repos) => {
          const locked = await repos.users.lock(user.id);
          if (locked) await repos.users.update({ ...locked, userMetadata: { step: 1 }, updatedAt: at(7) });
        },
        (repos) => repos.users.lock(user.id),
      );
      expect(order).toEqual(["first done", "second read"]);
      expect(read).toEqual({ ...user, userMetadata: { step: 1 }, updatedAt: at(7) });
    });

    it("lets exactly one of two simultaneous rotations of a session's token win", async () => {
      const { store } = harness();
      const { session } = await seedSession(store);
      const t0 = await store.sessions.insertToken(aToken(session));
      const rotate = () =>
        store.transaction(async (repos) => {
          await repos.sessions.lock(session.id);
          const active = await repos.sessions.activeToken(session.id);
          if (active?.id !== t0.id) return "found the winner's child";
          await repos.sessions.revokeToken(t0.id, at(1));
          await repos.sessions.insertToken(aToken(session, { parentId: t0.id, createdAt: at(1) }));
          return "rotated";
        });
      const outcomes = await Promise.all([rotate(), rotate()]);
      expect(outcomes.sort()).toEqual(["found the winner's child", "rotated"]);
      const active = await store.sessions.activeToken(session.id);
      expect(active?.parentId).toBe(t0.id);
      expect(await store.sessions.revokeDescendants(t0.id, at(2))).toBe(1);
    });
  });
}
