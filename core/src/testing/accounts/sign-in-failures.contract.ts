import { describe, expect, it } from "vitest";
import { afterFailure, type LockoutSettings, NO_FAILURES } from "../../accounts/index.js";
import { at, type MakeStore, newId, useStore } from "../harness.js";

const POLICY: LockoutSettings = {
  enabled: true,
  backoffAfter: 2,
  lockAfter: 4,
  lockSeconds: 60,
  resetSeconds: 600,
};
const aKey = () => newId().replace(/-/g, "").padEnd(64, "0");

/** `SignInFailures`: counts written and read back, taken one after another under the row lock, cleared. */
export function describeSignInFailuresContract(name: string, makeStore: MakeStore): void {
  describe(`${name}: SignInFailures`, () => {
    const harness = useStore(makeStore);

    it("reads an empty count for an unknown key, and what was written", async () => {
      const { store } = harness();
      const key = aKey();
      expect(await store.signInFailures.read(key)).toEqual(NO_FAILURES);
      const count = { failedAttempts: 3, lastFailedAt: at(5), lockedUntil: at(65) };
      await store.transaction(async (repos) => {
        await repos.signInFailures.lock(key);
        await repos.signInFailures.write(key, count, { expiresAt: at(600), locked: true });
      });
      expect(await store.signInFailures.read(key)).toEqual(count);
      expect(await store.signInFailures.clear([key, aKey()])).toBe(1);
      expect(await store.signInFailures.read(key)).toEqual(NO_FAILURES);
    });

    it("counts twelve parallel failures one after another: twelve counted, exactly one lock", async () => {
      const { store } = harness();
      const key = aKey();
      const locks = await Promise.all(
        Array.from({ length: 12 }, () =>
          store.transaction(async (repos) => {
            const next = afterFailure(await repos.signInFailures.lock(key), POLICY, at(10));
            await repos.signInFailures.write(key, next.count, {
              expiresAt: next.expiresAt,
              locked: next.locked,
            });
            return next.locked;
          }),
        ),
      );
      expect(locks.filter(Boolean)).toHaveLength(1);
      expect(await store.signInFailures.read(key)).toEqual({
        failedAttempts: 12,
        lastFailedAt: at(10),
        lockedUntil: at(70),
      });
    });
  });
}
