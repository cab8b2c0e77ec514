import type { RefreshTokenRecord, Session } from "../domain/session.js";
import type { Identity, User } from "../domain/user.js";
import type { AuditEntry } from "../ports/audit-log.js";
import type { OneTimeToken } from "../ports/one-time-tokens.js";
import type { Repositories, SessionStore, Store, UserRepository } from "../ports/store.js";
import { fakeQuota } from "./fake-crypto.js";
import { fakeOneTimeTokens } from "./fake-one-time-tokens.js";

/** In-memory tables; transactions just run the callback (no isolation, no rollback). */
export interface FakeTables {
  users: Map<string, User>;
  identities: Map<string, Identity>;
  sessions: Map<string, Session>;
  tokens: Map<string, RefreshTokenRecord>;
  audit: AuditEntry[];
  oneTimeTokens: Map<string, OneTimeToken>;
}

function fakeUsers(t: FakeTables): UserRepository {
  const clash = (u: User) =>
    [...t.users.values()].find(
      (o) => o.id !== u.id && ((u.email && o.email === u.email) || (u.phone && o.phone === u.phone)),
    );
  const withIdentities = (u: User) => ({
    ...u,
    identities: [...t.identities.values()].filter((i) => i.userId === u.id),
  });
  return {
    findById: async (id) => t.users.get(id) ?? null,
    findWithIdentities: async (id) => {
      const u = t.users.get(id);
      return u ? withIdentities(u) : null;
    },
    findByEmail: async (email) => [...t.users.values()].find((u) => u.email === email.toLowerCase()) ?? null,
    findByPhone: async (phone) => [...t.users.values()].find((u) => u.phone === phone) ?? null,
    lock: async (id) => t.users.get(id) ?? null,
    insert: async (u) => {
      if (t.users.has(u.id)) return "duplicate_id";
      const other = clash(u);
      if (other) return u.email && other.email === u.email ? "duplicate_email" : "duplicate_phone";
      t.users.set(u.id, u);
      return "inserted";
    },
    update: async (u) => {
      if (!t.users.has(u.id)) return "not_found";
      const other = clash(u);
      if (other) return u.email && other.email === u.email ? "duplicate_email" : "duplicate_phone";
      t.users.set(u.id, u);
      return "updated";
    },
    delete: async (id) => {
      for (const [k, s] of t.sessions) if (s.userId === id) t.sessions.delete(k);
      for (const [k, r] of t.tokens) if (r.userId === id) t.tokens.delete(k);
      for (const [k, i] of t.identities) if (i.userId === id) t.identities.delete(k);
      for (const [k, o] of t.oneTimeTokens) if (o.userId === id) t.oneTimeTokens.delete(k);
      return t.users.delete(id);
    },
    list: async ({ offset, limit, aud }) => {
      const all = [...t.users.values()]
        .filter((u) => aud === undefined || u.aud === aud)
        .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : -1));
      return { users: all.slice(offset, offset + limit).map(withIdentities), total: all.length };
    },
  };
}

function fakeSessions(t: FakeTables): SessionStore {
  let nextId = 1;
  const dropSession = (id: string) => {
    for (const [k, r] of t.tokens) if (r.sessionId === id) t.tokens.delete(k);
    return t.sessions.delete(id);
  };
  return {
    create: async (s) => void t.sessions.set(s.id, s),
    find: async (id) => t.sessions.get(id) ?? null,
    lock: async (id) => t.sessions.get(id) ?? null,
    markRefreshed: async (id, at) => {
      const s = t.sessions.get(id);
      if (s) t.sessions.set(id, { ...s, refreshedAt: at, updatedAt: at });
    },
    deleteForUser: async (userId, options) => {
      const ids = [...t.sessions.values()].filter((s) => s.userId === userId && s.id !== options?.except);
      for (const s of ids) dropSession(s.id);
      return ids.length;
    },
    delete: async (id) => dropSession(id),
    insertToken: async (token) => {
      const record = { ...token, id: String(nextId++) };
      t.tokens.set(record.id, record);
      return record;
    },
    findTokenByHash: async (hash) => [...t.tokens.values()].find((r) => r.tokenHash === hash) ?? null,
    activeToken: async (sessionId) =>
      [...t.tokens.values()].filter((r) => r.sessionId === sessionId && !r.revoked).at(-1) ?? null,
    revokeToken: async (id, at) => {
      const r = t.tokens.get(id);
      if (r) t.tokens.set(id, { ...r, revoked: true, updatedAt: at });
    },
    revokeDescendants: async (id, at) => {
      let count = 0;
      let frontier = [id];
      while (frontier.length > 0) {
        const children = [...t.tokens.values()].filter(
          (r) => r.parentId !== null && frontier.includes(r.parentId),
        );
        for (const c of children) {
          if (!c.revoked) count++;
          t.tokens.set(c.id, { ...c, revoked: true, updatedAt: c.revoked ? c.updatedAt : at });
        }
        frontier = children.map((c) => c.id);
      }
      return count;
    },
    revokeAllForUser: async (userId, at) => {
      const live = [...t.tokens.values()].filter((r) => r.userId === userId && !r.revoked);
      for (const r of live) t.tokens.set(r.id, { ...r, revoked: true, updatedAt: at });
      return live.length;
    },
  };
}

/**
 * Row locks as `select … for update` takes them: a transaction's `lock` waits while another transaction
 * holds the row, and everything it locked is released when its callback settles. Without them two
 * concurrent refreshes would both rotate the same token here, yet never against Postgres.
 */
function rowLocks() {
  const tails = new Map<string, Promise<void>>();
  return () => {
    const releases: (() => void)[] = [];
    const held = new Set<string>();
    return {
      async lock(key: string): Promise<void> {
        if (held.has(key)) return;
        held.add(key);
        const previous = tails.get(key) ?? Promise.resolve();
        let release!: () => void;
        const mine = new Promise<void>((resolve) => {
          release = resolve;
        });
        tails.set(key, mine);
        releases.push(() => {
          release();
          if (tails.get(key) === mine) tails.delete(key);
        });
        await previous;
      },
      releaseAll: () => {
        for (const release of releases) release();
      },
    };
  };
}

/** An in-memory `Store` whose tables a test can inspect. */
export function fakeStore(): Store & { tables: FakeTables } {
  const tables: FakeTables = {
    users: new Map(),
    identities: new Map(),
    sessions: new Map(),
    tokens: new Map(),
    audit: [],
    oneTimeTokens: new Map(),
  };
  const repos: Repositories = {
    users: fakeUsers(tables),
    identities: {
      insert: async (i: Identity) => void tables.identities.set(i.id, i),
      update: async (i: Identity) => void (tables.identities.has(i.id) && tables.identities.set(i.id, i)),
      listByUser: async (userId) => [...tables.identities.values()].filter((i) => i.userId === userId),
    },
    sessions: fakeSessions(tables),
    audit: { record: async (entry) => void tables.audit.push(entry) },
    oneTimeTokens: fakeOneTimeTokens(tables.oneTimeTokens),
    quota: fakeQuota(),
  };
  const begin = rowLocks();
  const transaction: Store["transaction"] = async (fn) => {
    const locks = begin();
    const { users, sessions } = repos;
    try {
      return await fn({
        ...repos,
        users: {
          ...users,
          lock: async (id) => {
            await locks.lock(`users/${id}`);
            return users.lock(id);
          },
        },
        sessions: {
          ...sessions,
          lock: async (id) => {
            await locks.lock(`sessions/${id}`);
            return sessions.lock(id);
          },
        },
      });
    } finally {
      locks.releaseAll();
    }
  };
  return { ...repos, tables, transaction };
}
