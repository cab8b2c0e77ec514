import { describe, expect, it } from "vitest";
import { at, aUser, type MakeStore, newId, useStore } from "../harness.js";
import { aFactor } from "./factors.contract.js";

const hash = (n: number) => n.toString(16).padStart(64, "0");

/** `RecoveryCodeStore`: a set replaced whole, codes used once even in parallel, the counts. */
export function describeRecoveryCodeStoreContract(name: string, makeStore: MakeStore): void {
  describe(`${name}: RecoveryCodeStore`, () => {
    const harness = useStore(makeStore);

    async function aCodeFactor() {
      const { store } = harness();
      const user = aUser();
      await store.users.insert(user);
      const factor = aFactor(user.id, { factorType: "recovery_code", status: "verified", secret: null });
      await store.factors.insert(factor);
      return factor;
    }

    it("replaces a set whole and counts what is left", async () => {
      const { store } = harness();
      const factor = await aCodeFactor();
      const first = [1, 2, 3].map((n) => ({ id: newId(), codeHash: hash(n) }));
      await store.recoveryCodes.replace(factor.id, first, at(0));
      expect(await store.recoveryCodes.count(factor.id)).toEqual({ total: 3, remaining: 3 });
      expect(await store.recoveryCodes.consume(first[0]?.id ?? "", at(1))).toBe(true);
      expect(await store.recoveryCodes.count(factor.id)).toEqual({ total: 3, remaining: 2 });
      expect((await store.recoveryCodes.unused(factor.id)).map((c) => c.codeHash)).toEqual([
        hash(2),
        hash(3),
      ]);
      const second = [4, 5].map((n) => ({ id: newId(), codeHash: hash(n) }));
      await store.recoveryCodes.replace(factor.id, second, at(2));
      expect(await store.recoveryCodes.count(factor.id)).toEqual({ total: 2, remaining: 2 });
      expect(await store.recoveryCodes.consume(first[1]?.id ?? "", at(3))).toBe(false);
    });

    it("uses a code once: of eight parallel uses, exactly one wins", async () => {
      const { store } = harness();
      const factor = await aCodeFactor();
      const code = { id: newId(), codeHash: hash(9) };
      await store.recoveryCodes.replace(factor.id, [code], at(0));
      const uses = await Promise.all(
        Array.from({ length: 8 }, () => store.recoveryCodes.consume(code.id, at(1))),
      );
      expect(uses.filter(Boolean)).toHaveLength(1);
      expect(await store.recoveryCodes.count(factor.id)).toEqual({ total: 1, remaining: 0 });
    });

    it("knows no codes of a factor without a set or of a malformed id", async () => {
      const { store } = harness();
      const factor = await aCodeFactor();
      expect(await store.recoveryCodes.count(factor.id)).toEqual({ total: 0, remaining: 0 });
      expect(await store.recoveryCodes.unused("not-a-uuid")).toEqual([]);
      expect(await store.recoveryCodes.consume("not-a-uuid", at(0))).toBe(false);
    });
  });
}
