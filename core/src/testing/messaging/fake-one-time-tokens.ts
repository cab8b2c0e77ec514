import type { OneTimeToken, OneTimeTokenStore } from "../../messaging/index.js";

/** In-memory one-time tokens keyed by user and type; consuming deletes synchronously (atomic here). */
export function fakeOneTimeTokens(tokens: Map<string, OneTimeToken>): OneTimeTokenStore {
  const key = (t: Pick<OneTimeToken, "userId" | "type">) => `${t.userId}/${t.type}`;
  // Wrong-code counts by token key; a replaced token starts again from zero.
  const failures = new Map<string, number>();
  const take = (match: (t: OneTimeToken) => boolean) => {
    const found = [...tokens.values()].find(match);
    if (found) tokens.delete(key(found));
    return found ?? null;
  };
  return {
    put: async (token) => {
      tokens.set(key(token), token);
      failures.delete(key(token));
    },
    consumeByTokenHash: async (hash, types) => take((t) => t.tokenHash === hash && types.includes(t.type)),
    consumeByOtp: async (relatesTo, otpHash, types) =>
      take((t) => t.relatesTo === relatesTo && t.otpHash === otpHash && types.includes(t.type)),
    recordFailedAttempt: async (relatesTo, types, maxAttempts) => {
      for (const [k, t] of tokens) {
        if (t.relatesTo !== relatesTo || !types.includes(t.type)) continue;
        const count = (failures.get(k) ?? 0) + 1;
        if (count >= maxAttempts) {
          tokens.delete(k);
          failures.delete(k);
        } else failures.set(k, count);
      }
    },
    find: async (userId, type) => tokens.get(key({ userId, type })) ?? null,
    deleteForUser: async (userId, types) => {
      for (const [k, t] of tokens)
        if (t.userId === userId && (!types || types.includes(t.type))) tokens.delete(k);
    },
  };
}
