import type { Store } from "../store.js";
import type { FakeTables } from "./fake-store.js";

/**
 * Makes a fake store's `transaction` restore every table when the callback throws, as Postgres does.
 * Only for tests of "a failed send leaves nothing behind"; the plain fake never rolls back. Assumes
 * one transaction at a time (rows are immutable values, so a shallow copy of each table suffices).
 */
export function rollingBack<S extends Store & { tables: FakeTables }>(store: S): S {
  const inner = store.transaction.bind(store);
  const transaction: Store["transaction"] = async (fn) => {
    const t = store.tables;
    const saved = {
      users: new Map(t.users),
      identities: new Map(t.identities),
      sessions: new Map(t.sessions),
      tokens: new Map(t.tokens),
      oneTimeTokens: new Map(t.oneTimeTokens),
      flowStates: new Map(t.flowStates),
      audit: [...t.audit],
    };
    try {
      return await inner(fn);
    } catch (thrown) {
      for (const name of [
        "users",
        "identities",
        "sessions",
        "tokens",
        "oneTimeTokens",
        "flowStates",
      ] as const) {
        const table = t[name] as Map<string, unknown>;
        table.clear();
        for (const [k, v] of saved[name]) table.set(k, v);
      }
      t.audit.splice(0, t.audit.length, ...saved.audit);
      throw thrown;
    }
  };
  return Object.assign(store, { transaction });
}
