import { describe, expect, it } from "vitest";
import { at, gate, type MakeStore, seedUser, useStore } from "../harness.js";
import { aChallenge, aFactor } from "./factors.contract.js";

/** The guessing limits' half of the MFA ports: a factor's attempts under its row lock, a challenge's count. */
export function describeFactorAttemptsContract(name: string, makeStore: MakeStore): void {
  describe(`${name}: factor attempts and challenge counts`, () => {
    const harness = useStore(makeStore);

    async function aStoredFactor() {
      const { store } = harness();
      const user = await seedUser(store);
      const factor = aFactor(user.id);
      await store.factors.insert(factor);
      return { user, factor };
    }

    it("reads a factor with its guessing state for its owner only, as last set, and forgets it with the factor", async () => {
      const { store } = harness();
      const { user, factor } = await aStoredFactor();
      const other = await seedUser(store);
      const read = (userId = user.id, id = factor.id) =>
        store.transaction((repos) => repos.factors.lockOwned(userId, id));
      expect(await read()).toEqual({
        factor,
        attempts: { failedAttempts: 0, lockedUntil: null, lastTotpStep: null },
      });
      expect(await read(other.id)).toBeNull();
      expect(await read(user.id, "not-a-uuid")).toBeNull();
      const attempts = { failedAttempts: 7, lockedUntil: at(60), lastTotpStep: 63_115_200 };
      await store.factors.setAttempts(factor.id, attempts);
      expect(await read()).toEqual({ factor, attempts });
      await store.factors.setAttempts(factor.id, { ...attempts, failedAttempts: 0, lockedUntil: null });
      expect((await read())?.attempts).toEqual({
        failedAttempts: 0,
        lockedUntil: null,
        lastTotpStep: 63_115_200,
      });
      await store.factors.delete(factor.id);
      await store.factors.setAttempts(factor.id, attempts);
      expect(await read()).toBeNull();
    });

    it("counts 20 parallel attempts at one factor one after the other under its lock", async () => {
      const { store } = harness();
      const { user, factor } = await aStoredFactor();
      const attempt = () =>
        store.transaction(async (repos) => {
          const locked = await repos.factors.lockOwned(user.id, factor.id);
          if (locked === null) throw new Error("factor gone");
          const { attempts } = locked;
          await repos.factors.setAttempts(factor.id, {
            ...attempts,
            failedAttempts: attempts.failedAttempts + 1,
          });
        });
      await Promise.all(Array.from({ length: 20 }, attempt));
      const final = await store.transaction((repos) => repos.factors.lockOwned(user.id, factor.id));
      expect(final?.attempts.failedAttempts).toBe(20);
    });

    it("makes a second locker of a factor wait for the first to commit, then read its attempts", async () => {
      const { store, untilLockWaited } = harness();
      const { user, factor } = await aStoredFactor();
      const attempts = { failedAttempts: 3, lockedUntil: null, lastTotpStep: 9 };
      const wrote = gate();
      const release = gate();
      const first = store.transaction(async (repos) => {
        await repos.factors.lockOwned(user.id, factor.id);
        await repos.factors.setAttempts(factor.id, attempts);
        wrote.open();
        await release.opened;
      });
      await Promise.race([wrote.opened, first]);
      let secondSettled = false;
      const second = store
        .transaction((repos) => repos.factors.lockOwned(user.id, factor.id))
        .finally(() => {
          secondSettled = true;
        });
      // Without a real lock the second transaction finishes on its own, having read no attempts.
      await untilLockWaited?.(() => secondSettled);
      release.open();
      const [, read] = await Promise.all([first, second]);
      expect(read?.attempts).toEqual(attempts);
    });

    it("counts codes at a challenge up to the limit, never past it in parallel", async () => {
      const { store } = harness();
      const { factor } = await aStoredFactor();
      const challenge = aChallenge(factor.id);
      await store.challenges.insert(challenge);
      const counted = await Promise.all(
        Array.from({ length: 20 }, () => store.challenges.countAttempt(challenge.id, 5)),
      );
      expect(counted.filter((c) => c)).toHaveLength(5);
      expect((await store.challenges.findOfFactor(factor.id, challenge.id))?.attempts).toBe(5);
      expect(await store.challenges.countAttempt(challenge.id, 6)).toBe(true);
      await store.challenges.delete(challenge.id);
      expect(await store.challenges.countAttempt(challenge.id, 10)).toBe(false);
      expect(await store.challenges.countAttempt("not-a-uuid", 10)).toBe(false);
    });
  });
}
