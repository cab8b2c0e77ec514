import { NO_FAILURES, type SignInFailureCount, type SignInFailures } from "../../accounts/index.js";

/** Lockout counters in memory (the fake store's transaction adds the row lock). */
export function fakeSignInFailures(): SignInFailures & { readonly locks: string[] } {
  const rows = new Map<string, SignInFailureCount>();
  const locks: string[] = [];
  return {
    locks,
    read: async (key) => rows.get(key) ?? NO_FAILURES,
    lock: async (key) => rows.get(key) ?? NO_FAILURES,
    async write(key, count, change) {
      rows.set(key, count);
      if (change.locked) locks.push(key);
    },
    async clear(keys) {
      let cleared = 0;
      for (const key of keys) if (rows.delete(key)) cleared++;
      return cleared;
    },
  };
}
