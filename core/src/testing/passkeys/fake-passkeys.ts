import type { PasskeyStore, WebauthnChallengeStore } from "../../passkeys/index.js";
import type { FakeTables } from "../fake-tables.js";

/** `PasskeyStore` over the in-memory tables. */
export function fakePasskeys(t: FakeTables): PasskeyStore {
  const owned = (userId: string, id: string) => {
    const passkey = t.passkeys.get(id);
    return passkey !== undefined && passkey.userId === userId ? passkey : null;
  };
  return {
    async insert(passkey) {
      for (const other of t.passkeys.values())
        if (other.credentialId === passkey.credentialId) return "exists";
      t.passkeys.set(passkey.id, passkey);
      return "inserted";
    },
    async listByUser(userId) {
      return [...t.passkeys.values()]
        .filter((p) => p.userId === userId)
        .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id.localeCompare(b.id));
    },
    async findOwned(userId, id) {
      return owned(userId, id);
    },
    async rename(userId, id, friendlyName, at) {
      const passkey = owned(userId, id);
      if (passkey === null) return null;
      const renamed = { ...passkey, friendlyName, updatedAt: at };
      t.passkeys.set(id, renamed);
      return renamed;
    },
    async delete(userId, id) {
      return owned(userId, id) !== null && t.passkeys.delete(id);
    },
    async recordUse(id, use) {
      const passkey = t.passkeys.get(id);
      if (passkey === undefined) return false;
      const advances = use.signCount > passkey.signCount || (use.signCount === 0 && passkey.signCount === 0);
      if (!advances) return false;
      t.passkeys.set(id, {
        ...passkey,
        signCount: use.signCount,
        backedUp: use.backedUp,
        lastUsedAt: use.at,
        updatedAt: use.at,
      });
      return true;
    },
  };
}

/** `WebauthnChallengeStore` over the in-memory tables: a consume is a synchronous take. */
export function fakeWebauthnChallenges(t: FakeTables): WebauthnChallengeStore {
  return {
    async insert(challenge) {
      t.webauthnChallenges.set(challenge.id, challenge);
    },
    async consume(id, type, userId) {
      const challenge = t.webauthnChallenges.get(id);
      if (challenge === undefined || challenge.type !== type || challenge.userId !== userId) return null;
      t.webauthnChallenges.delete(id);
      return challenge;
    },
    async deleteExpired(now) {
      let count = 0;
      for (const [id, c] of t.webauthnChallenges) {
        if (c.expiresAt.getTime() < now.getTime()) count += Number(t.webauthnChallenges.delete(id));
      }
      return count;
    },
  };
}
