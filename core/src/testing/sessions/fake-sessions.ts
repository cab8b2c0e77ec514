import type { RefreshTokenRecord, Session, SessionStore } from "../../sessions/index.js";
import { fakeUsers } from "../accounts/fake-users.js";
import type { FakeTables } from "../fake-tables.js";
import { fakePasswordGrant } from "./fake-password-grant.js";
import { fakeRefreshGrant } from "./fake-refresh-grant.js";

/** The first refresh token of `session`, as `SessionStore.create` inserts it. */
const firstToken = (session: Session, tokenHash: string): Omit<RefreshTokenRecord, "id"> => ({
  sessionId: session.id,
  userId: session.userId,
  tokenHash,
  parentId: null,
  revoked: false,
  createdAt: session.createdAt,
  updatedAt: session.createdAt,
});

/** Sessions and refresh-token chains over the shared in-memory tables. */
export function fakeSessions(t: FakeTables): SessionStore {
  let nextId = 1;
  const dropSession = (id: string) => {
    for (const [k, r] of t.tokens) if (r.sessionId === id) t.tokens.delete(k);
    return t.sessions.delete(id);
  };
  const store: Omit<SessionStore, "grantRefresh" | "grantPassword" | "findUserAndSession"> = {
    create: async (s, firstTokenHash) => {
      t.sessions.set(s.id, s);
      if (firstTokenHash === undefined) return;
      const record = { ...firstToken(s, firstTokenHash), id: String(nextId++) };
      t.tokens.set(record.id, record);
    },
    find: async (id) => t.sessions.get(id) ?? null,
    listForUser: async (userId) =>
      [...t.sessions.values()]
        .filter((s) => s.userId === userId)
        .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : 1)),
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
  const users = fakeUsers(t);
  return {
    ...store,
    grantRefresh: fakeRefreshGrant(t, store, users),
    grantPassword: fakePasswordGrant(t, store, users),
    findUserAndSession: async (userId, sessionId) => ({
      // The body GET /user answers: identities and factors, as the users fake reads it.
      user: await users.findWithIdentities(userId),
      session: sessionId === null ? null : (t.sessions.get(sessionId) ?? null),
    }),
  };
}
