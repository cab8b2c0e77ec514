import type { RecoveryCodeStore, StoredRecoveryCode } from "../../mfa/index.js";

/** Recovery codes in memory, keyed by factor; a code once used stays used. */
export function fakeRecoveryCodes(): RecoveryCodeStore {
  const sets = new Map<string, { code: StoredRecoveryCode; usedAt: Date | null }[]>();
  const find = (id: string) => [...sets.values()].flat().find((entry) => entry.code.id === id);
  return {
    async replace(factorId, codes) {
      sets.set(
        factorId,
        codes.map((code) => ({ code, usedAt: null })),
      );
    },
    async unused(factorId) {
      return (sets.get(factorId) ?? []).filter((e) => e.usedAt === null).map((e) => e.code);
    },
    async consume(id, at) {
      const entry = find(id);
      if (entry === undefined || entry.usedAt !== null) return false;
      entry.usedAt = at;
      return true;
    },
    async count(factorId) {
      const set = sets.get(factorId) ?? [];
      return { total: set.length, remaining: set.filter((e) => e.usedAt === null).length };
    },
  };
}
